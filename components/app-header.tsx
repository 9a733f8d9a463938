"use client";
import Link from "next/link";
import { useState } from "react";
import { Button } from "./ui/button";
import { TableIcon } from "./ui/icons";

export function AppHeader({ children }: { children?: React.ReactNode }) {
  const [busy, setBusy] = useState(false);
  async function signOut() {
    setBusy(true);
    await fetch("/api/v1/session", { method: "DELETE", credentials: "same-origin" }).catch(() => undefined);
    window.location.assign("/sign-in");
  }
  return (
    <header className="flex h-12 shrink-0 items-center gap-3 border-b border-zinc-200 bg-white px-3 sm:px-4 dark:border-zinc-800 dark:bg-zinc-900">
      <Link
        href="/"
        className="flex items-center gap-2 rounded-md font-semibold focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        <span className="grid size-7 place-items-center rounded-md bg-indigo-600 text-white">
          <TableIcon />
        </span>
        {/* Below sm only the icon shows; the name stays the link's accessible name. */}
        <span className="max-sm:sr-only">Cellwright</span>
      </Link>
      <nav aria-label="Breadcrumb" className="flex min-w-0 flex-1 items-center gap-2 text-sm">
        {children}
      </nav>
      <Link
        href="/settings/members"
        className="rounded-md px-2 py-1 text-sm text-zinc-600 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-zinc-400 dark:hover:text-zinc-100"
      >
        Settings
      </Link>
      {/* A plain link: /docs is a server-rendered page outside the app's client routes. */}
      <a
        href="/docs"
        className="rounded-md px-2 py-1 text-sm text-zinc-600 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-zinc-400 dark:hover:text-zinc-100"
      >
        API docs
      </a>
      <Button size="sm" variant="ghost" onClick={signOut} disabled={busy}>
        Sign out
      </Button>
    </header>
  );
}
