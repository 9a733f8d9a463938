"use client";
import type { ReactNode } from "react";
import { ApiError } from "../data/api";
import { TableIcon } from "../ui/icons";

// The frame and fields of the signed-out pages (sign-in, invitation, password reset), so they
// look alike and label their inputs the same way.

export const INPUT_CLASS =
  "mt-1.5 block h-10 w-full rounded-md border border-zinc-300 bg-white px-3 text-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 dark:border-zinc-700 dark:bg-zinc-950";

export function AuthCard({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <div className="w-full max-w-sm rounded-2xl border border-zinc-200 bg-white p-7 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
      <div className="mb-6 flex items-center gap-2.5">
        <span className="grid size-9 place-items-center rounded-lg bg-indigo-600 text-lg text-white">
          <TableIcon />
        </span>
        <div>
          <h1 className="text-lg leading-tight font-semibold">{title}</h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{subtitle}</p>
        </div>
      </div>
      {children}
    </div>
  );
}

interface FieldProps {
  id: string;
  label: string;
  type?: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete?: string;
  autoFocus?: boolean;
  required?: boolean;
  hint?: string;
  mono?: boolean;
  placeholder?: string;
}

export function Field(p: FieldProps) {
  return (
    <div className="mt-4 first:mt-0">
      <label htmlFor={p.id} className="block text-sm font-medium">
        {p.label}
      </label>
      <input
        id={p.id}
        name={p.id}
        type={p.type ?? "text"}
        autoComplete={p.autoComplete}
        autoFocus={p.autoFocus}
        spellCheck={false}
        required={p.required}
        value={p.value}
        placeholder={p.placeholder}
        onChange={(e) => p.onChange(e.target.value)}
        aria-describedby={p.hint ? `${p.id}-hint` : undefined}
        className={`${INPUT_CLASS} ${p.mono ? "font-mono" : ""}`}
      />
      {p.hint && (
        <p id={`${p.id}-hint`} className="mt-1.5 text-xs text-zinc-600 dark:text-zinc-400">
          {p.hint}
        </p>
      )}
    </div>
  );
}

export function FormError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p role="alert" className="mt-3 text-sm text-red-600 dark:text-red-400">
      {error}
    </p>
  );
}

/** The message to show for a failed request: the server's own, which names what to fix. */
export const errorMessage = (err: unknown, fallback: string) =>
  err instanceof ApiError || err instanceof Error ? err.message : fallback;
