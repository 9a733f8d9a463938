"use client";
import { useId, useRef } from "react";
import type { ColumnView } from "../../data/types";
import { FunctionIcon, SparkleIcon } from "../../ui/icons";
import { FILL_MODES, type FillMode } from "./column-form";

const INPUT =
  "mt-1 block w-full rounded-md border border-zinc-300 bg-white px-2.5 py-1.5 font-mono text-sm text-zinc-900 outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 aria-invalid:border-red-500 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100";

const MODE_ICONS: Partial<Record<FillMode, React.ReactNode>> = {
  ai: <SparkleIcon className="text-violet-500" />,
  formula: <FunctionIcon className="text-sky-600" />,
};

/** How the column is filled: one choice, as a row of radio buttons. */
export function FillModePicker({ mode, onChange }: { mode: FillMode; onChange: (m: FillMode) => void }) {
  return (
    <fieldset>
      <legend className="font-medium">Filled</legend>
      <div className="mt-1.5 grid gap-1.5 sm:grid-cols-3">
        {FILL_MODES.map((m) => (
          <label
            key={m.value}
            className="flex cursor-pointer items-start gap-2 rounded-md border border-zinc-200 p-2 has-checked:border-indigo-500 has-checked:bg-indigo-50 dark:border-zinc-700 dark:has-checked:bg-indigo-950"
          >
            <input
              type="radio"
              name="fill-mode"
              className="mt-0.5 size-4 accent-indigo-600"
              aria-label={m.name}
              checked={mode === m.value}
              onChange={() => onChange(m.value)}
            />
            <span>
              <span className="flex items-center gap-1 font-medium">
                {MODE_ICONS[m.value]}
                {m.label}
              </span>
              <span className="block text-xs text-zinc-600 dark:text-zinc-300">{m.hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const token = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name}\``);

/** The formula's expression, with the base's columns as buttons that insert a reference at the caret. */
export function FormulaField({
  expression,
  onChange,
  columns,
  error,
  errorId,
}: {
  expression: string;
  onChange: (v: string) => void;
  columns: ColumnView[];
  error?: string;
  errorId: string;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const fieldId = useId();
  const insert = (name: string) => {
    const el = ref.current;
    const at = el ? el.selectionStart : expression.length;
    const end = el ? el.selectionEnd : expression.length;
    const text = token(name);
    onChange(expression.slice(0, at) + text + expression.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + text.length, at + text.length);
    });
  };
  return (
    <div>
      <label htmlFor={fieldId} className="block font-medium">
        Formula
      </label>
      <textarea
        id={fieldId}
        ref={ref}
        className={INPUT}
        rows={3}
        value={expression}
        spellCheck={false}
        placeholder={'e.g. $substringAfter(Email, "@")'}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
        A JSONata expression over the row: name columns as fields, in backquotes when the name has spaces. Recomputed
        whenever they change. Examples: <code>Price * Quantity</code>, <code>$join([First, Last], " ")</code>.
      </p>
      {columns.length ? (
        <div className="mt-1.5 flex flex-wrap gap-1.5" role="group" aria-label="Insert a column">
          {columns.map((c) => (
            <button
              key={c.id}
              type="button"
              className="rounded-full border border-zinc-300 px-2.5 py-0.5 text-xs hover:border-indigo-500 hover:bg-indigo-50 dark:border-zinc-700 dark:hover:bg-indigo-950"
              onClick={() => insert(c.name)}
            >
              {c.name}
            </button>
          ))}
        </div>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="mt-1 text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export const CONFIG_HINTS = {
  http: "The request for each row ({{Column}} and {{secret:NAME}} placeholders), the JSONata that reads the value from the answer (extract), when an answer means no data (notFound), retries, cache and credits.",
  waterfall:
    "Each step's settings are JSON: an http step's request, extract, notFound and credits; a tool step's tool and input; an ai step's instructions and tools; a formula step's expression. Any step may add a check: validate (JSONata on $value) or minConfidence.",
};

/** An HTTP column's settings, edited as JSON; the API checks them and names the field at fault. */
export function ConfigField({
  value,
  onChange,
  error,
  errorId,
}: {
  value: string;
  onChange: (v: string) => void;
  error?: string;
  errorId: string;
}) {
  const fieldId = useId();
  return (
    <div>
      <label htmlFor={fieldId} className="block font-medium">
        Request
      </label>
      <textarea
        id={fieldId}
        className={INPUT}
        rows={12}
        value={value}
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">{CONFIG_HINTS.http}</p>
      {error ? (
        <p id={errorId} role="alert" className="mt-1 text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
