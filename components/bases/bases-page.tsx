"use client";
import { useState } from "react";
import { usePermissions } from "../auth/use-permissions";
import { useBases } from "../data/queries";
import { AppHeader } from "../app-header";
import { ChatPanel } from "../chat/chat-panel";
import { Button } from "../ui/button";
import { PlusIcon, TableIcon } from "../ui/icons";
import { Skeleton } from "../ui/skeleton";
import { BaseListRow } from "./base-list-row";
import { CreateBaseDialog } from "./create-base-dialog";
import { ImportDialog } from "../imports/import-dialog";
import { ApiKeyPanel } from "./api-key-panel";
import { FirstOwnerBanner } from "../auth/first-owner-banner";

/** `firstOwner`: offer "Create your owner account" (a workspace key's session, no owner yet). */
export function BasesPage({ firstOwner = false }: { firstOwner?: boolean }) {
  const bases = useBases();
  const [creating, setCreating] = useState(false);
  const perms = usePermissions();
  const createDenied = perms.reason("schema:write", "create bases");
  const [importing, setImporting] = useState(false);

  return (
    <div className="flex h-dvh flex-col">
      <AppHeader>
        <span className="font-medium text-zinc-700 dark:text-zinc-300">Bases</span>
      </AppHeader>
      <div className="flex min-h-0 flex-1">
        <main className="min-w-0 flex-1 overflow-y-auto">
          <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6">
            {firstOwner && <FirstOwnerBanner />}
            <div className="mb-5 flex items-end justify-between gap-4">
              <div>
                <h1 className="text-2xl font-semibold tracking-tight">Bases</h1>
                <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
                  Tables whose AI columns fill themselves, with sources and confidence.
                </p>
              </div>
              <div className="flex gap-2">
                <Button onClick={() => setImporting(true)} deniedReason={createDenied}>
                  New base from file
                </Button>
                <Button variant="primary" onClick={() => setCreating(true)} deniedReason={createDenied}>
                  <PlusIcon /> New base
                </Button>
              </div>
            </div>

            {bases.isPending ? (
              <ul
                aria-label="Loading bases"
                aria-busy="true"
                className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900"
              >
                {[0, 1, 2].map((i) => (
                  <li key={i} className="flex items-center gap-4 px-4 py-4">
                    <Skeleton className="h-4 w-48" />
                    <Skeleton className="ml-auto h-4 w-64" />
                  </li>
                ))}
              </ul>
            ) : bases.isError ? (
              <p
                role="alert"
                className="rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
              >
                Could not load the bases: {bases.error.message}
              </p>
            ) : bases.data.length === 0 ? (
              <div className="flex flex-col items-center rounded-xl border border-dashed border-zinc-300 bg-white px-6 py-16 text-center dark:border-zinc-700 dark:bg-zinc-900">
                <span className="grid size-12 place-items-center rounded-full bg-indigo-50 text-2xl text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
                  <TableIcon />
                </span>
                <h2 className="mt-4 font-semibold">No bases yet</h2>
                <p className="mt-1 max-w-sm text-sm text-zinc-600 dark:text-zinc-400">
                  Create a base, add columns — some of them AI columns with instructions and tools — and paste your
                  rows.
                </p>
                <Button
                  variant="primary"
                  className="mt-5"
                  onClick={() => setCreating(true)}
                  deniedReason={createDenied}
                >
                  <PlusIcon /> Create your first base
                </Button>
              </div>
            ) : (
              <ul
                aria-label="Bases"
                className="divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-sm dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900"
              >
                {bases.data.map((b) => (
                  <BaseListRow key={b.baseId} base={b} />
                ))}
              </ul>
            )}
            <ApiKeyPanel />
          </div>
        </main>
        <ChatPanel baseId={null} />
      </div>
      <CreateBaseDialog open={creating} onClose={() => setCreating(false)} />
      <ImportDialog open={importing} onClose={() => setImporting(false)} />
    </div>
  );
}
