"use client";
import { useState } from "react";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { api, basePath, errorMessage } from "../../data/api";
import type { ColumnView } from "../../data/types";
import { usePermissions } from "../../auth/use-permissions";
import { Button } from "../../ui/button";
import { Skeleton } from "../../ui/skeleton";
import { timeAgo } from "../../ui/format";
import { useToast } from "../../ui/toast";
import { ChangeDiff, ChangeSources } from "./change-diff";
import { describeOrigin, historyKey, restoreBlocked, type HistoryEntry, type HistoryPage } from "./history-model";

const PAGE = 20;

export interface HistoryTarget {
  baseId: string;
  rowId: string;
  column: ColumnView;
  /** The cell's status now: a queued or running cell cannot be restored. */
  cellStatus: string | undefined;
  /** Reads the row again, for the grid to show the restored value at once. */
  onRestored: (rowId: string) => void;
}

/** One cell's changes, newest first, each with its diff and a button to undo it. */
export function CellHistory({ baseId, rowId, column, cellStatus, onRestored }: HistoryTarget) {
  const qc = useQueryClient();
  const toast = useToast();
  const denied = usePermissions().reason("rows:write", "restore values");
  const [busyId, setBusyId] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const key = historyKey(baseId, rowId, column.id);
  const history = useInfiniteQuery({
    queryKey: key,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const q = new URLSearchParams({ columnId: column.id, limit: String(PAGE) });
      if (pageParam) q.set("cursor", pageParam);
      return api<HistoryPage>(`${basePath(baseId)}/rows/${encodeURIComponent(rowId)}/history?${q}`, { signal });
    },
    getNextPageParam: (last) => last.nextCursor,
  });
  const blocked = restoreBlocked(column, cellStatus);
  const entries = history.data?.pages.flatMap((p) => p.entries) ?? [];

  async function restore(entry: HistoryEntry) {
    setBusyId(entry.id);
    setResult(null);
    try {
      const res = await api<{ revertedTo: { value: string } }>(
        `${basePath(baseId)}/rows/${encodeURIComponent(rowId)}/cells/${encodeURIComponent(column.id)}/revert`,
        { body: { historyId: entry.id } },
      );
      const value = res.revertedTo.value;
      setResult(value ? `Restored “${clip(value)}”.` : "Restored: the cell is empty again.");
      onRestored(rowId);
      await qc.invalidateQueries({ queryKey: historyKey(baseId, rowId) });
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusyId(null);
    }
  }

  return (
    <section aria-label="History" className="space-y-3 px-4 py-3" data-testid="cell-history">
      {blocked ? (
        <p className="rounded-md bg-zinc-100 px-2.5 py-1.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
          {blocked}
        </p>
      ) : null}
      <p role="status" className={result ? "text-xs font-medium text-emerald-700 dark:text-emerald-400" : "sr-only"}>
        {result ?? ""}
      </p>
      {history.isPending ? (
        <div className="space-y-2">
          <span className="sr-only">Loading history…</span>
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-4 w-1/2" />
        </div>
      ) : history.isError ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-400">
          {errorMessage(history.error)}
        </p>
      ) : entries.length === 0 ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">No changes recorded for this cell yet.</p>
      ) : (
        <ol className="space-y-3">
          {entries.map((entry) => (
            <HistoryItem
              key={entry.id}
              entry={entry}
              disabledReason={denied ?? blocked ?? undefined}
              busy={busyId === entry.id}
              onRestore={() => void restore(entry)}
            />
          ))}
        </ol>
      )}
      {history.hasNextPage ? (
        <Button
          size="sm"
          variant="ghost"
          className="w-full"
          disabled={history.isFetchingNextPage}
          onClick={() => void history.fetchNextPage()}
        >
          {history.isFetchingNextPage ? "Loading…" : "Load more"}
        </Button>
      ) : null}
    </section>
  );
}

function HistoryItem({
  entry,
  disabledReason,
  busy,
  onRestore,
}: {
  entry: HistoryEntry;
  disabledReason: string | undefined;
  busy: boolean;
  onRestore: () => void;
}) {
  const exact = new Date(entry.at).toLocaleString(undefined, { dateStyle: "full", timeStyle: "long" });
  const confidence = entry.after.confidence;
  return (
    <li className="rounded-lg border border-zinc-200 p-2.5 dark:border-zinc-700" data-testid="history-entry">
      <div className="mb-1.5 flex items-baseline justify-between gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        <span className="min-w-0 truncate">
          <span className="font-medium text-zinc-700 dark:text-zinc-300">{describeOrigin(entry)}</span>
          {entry.actor.runId ? (
            <span title={`Run ${entry.actor.runId}`}>
              {" · "}
              <span className="font-mono">{entry.actor.runId}</span>
            </span>
          ) : null}
        </span>
        <time dateTime={entry.at} title={exact} className="shrink-0">
          {timeAgo(entry.at)}
        </time>
      </div>
      <ChangeDiff before={entry.before} after={entry.after} />
      {typeof confidence === "number" ? (
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">Confidence {Math.round(confidence * 100)}%</p>
      ) : null}
      <ChangeSources sources={entry.after.sources} />
      <div className="mt-2 flex justify-end">
        <Button
          size="sm"
          variant="secondary"
          disabled={busy || Boolean(disabledReason)}
          title={
            disabledReason ?? `Puts back the value from before this change: “${clip(entry.before.value) || "empty"}”`
          }
          onClick={onRestore}
        >
          {busy ? "Restoring…" : "Restore previous value"}
        </Button>
      </div>
    </li>
  );
}

const clip = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
