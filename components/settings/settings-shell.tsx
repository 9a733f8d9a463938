"use client";
import Link from "next/link";
import { AppHeader } from "../app-header";

export type SettingsTab = "workspace" | "members" | "keys" | "secrets" | "audit";

const TABS: { id: SettingsTab; label: string; href: string }[] = [
  { id: "workspace", label: "Workspace", href: "/settings/workspace" },
  { id: "members", label: "Members", href: "/settings/members" },
  { id: "keys", label: "API keys", href: "/settings/keys" },
  { id: "secrets", label: "Secrets", href: "/settings/secrets" },
  { id: "audit", label: "Audit log", href: "/settings/audit" },
];

/** The workspace settings area: the header, a section nav and the page. */
export function SettingsShell({
  tab,
  title,
  description,
  actions,
  children,
}: {
  tab: SettingsTab;
  title: string;
  description: string;
  actions?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className="flex min-h-dvh flex-col">
      <AppHeader>
        <Link
          href="/"
          className="rounded text-zinc-600 hover:text-zinc-900 hover:underline dark:text-zinc-400 dark:hover:text-zinc-100"
        >
          Bases
        </Link>
        <span aria-hidden className="text-zinc-400">
          /
        </span>
        <span className="font-medium text-zinc-700 dark:text-zinc-300">Settings</span>
      </AppHeader>
      <div className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6 md:flex-row">
        <nav aria-label="Settings" className="shrink-0 md:w-48">
          <ul className="flex flex-wrap gap-1 md:flex-col">
            {TABS.map((t) => (
              <li key={t.id}>
                <Link
                  href={t.href}
                  aria-current={t.id === tab ? "page" : undefined}
                  className="block rounded-md px-3 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 aria-[current=page]:bg-indigo-50 aria-[current=page]:font-medium aria-[current=page]:text-indigo-800 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:aria-[current=page]:bg-indigo-950 dark:aria-[current=page]:text-indigo-200"
                >
                  {t.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main className="min-w-0 flex-1">
          <div className="mb-5 flex flex-wrap items-end justify-between gap-4">
            <div>
              <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
              <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{description}</p>
            </div>
            {actions ? <div className="flex gap-2">{actions}</div> : null}
          </div>
          {children}
        </main>
      </div>
    </div>
  );
}

export const tableClass =
  "w-full overflow-hidden rounded-xl border border-zinc-200 bg-white text-left text-sm shadow-sm dark:border-zinc-800 dark:bg-zinc-900";
export const thClass =
  "border-b border-zinc-200 bg-zinc-50 px-3 py-2 text-xs font-medium text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-400";
export const tdClass = "border-b border-zinc-100 px-3 py-2 align-top dark:border-zinc-800";
export const inputClass =
  "h-9 rounded-md border border-zinc-300 bg-white px-2 text-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 disabled:cursor-not-allowed disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-950";

export function LoadError({ what, error }: { what: string; error: Error }) {
  return (
    <p
      role="alert"
      className="rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
    >
      Could not load {what}: {error.message}
    </p>
  );
}
