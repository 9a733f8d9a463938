import { diffWordsWithSpace } from "diff";
import type { z } from "zod";
import type { rowHistory } from "@/lib/http/schemas/history.ts";

// Pure helpers behind the cell popover's History tab: the word diff of a change, what made it,
// and whether (and why not) it can be restored.

export type HistoryPage = z.infer<(typeof rowHistory)["response"]>;
export type HistoryEntry = HistoryPage["entries"][number];

/** The query key of a row's history: live `cell.changed` events invalidate every column's. */
export const historyKey = (baseId: string, rowId: string, columnId?: string) =>
  columnId ? (["history", baseId, rowId, columnId] as const) : (["history", baseId, rowId] as const);

export interface DiffPart {
  text: string;
  kind: "same" | "removed" | "added";
}

/** Values longer than this are shown whole on both sides: a word diff of pages helps nobody. */
const MAX_DIFF_CHARS = 4_000;

/**
 * Before → after as runs of unchanged, removed and added text, word by word (spaces kept, so the
 * parts joined give back either side). A side that is empty or too long comes out whole.
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  if (before === after) return before ? [{ text: before, kind: "same" }] : [];
  if (!before || !after || before.length + after.length > MAX_DIFF_CHARS) {
    return [
      ...(before ? [{ text: before, kind: "removed" as const }] : []),
      ...(after ? [{ text: after, kind: "added" as const }] : []),
    ];
  }
  return diffWordsWithSpace(before, after).map((c) => ({
    text: c.value,
    kind: c.added ? "added" : c.removed ? "removed" : "same",
  }));
}

/** The side of a diff: its unchanged parts and those of one kind, which joined give that side back. */
export const sideOf = (parts: readonly DiffPart[], kind: "removed" | "added") =>
  parts
    .filter((p) => p.kind === "same" || p.kind === kind)
    .map((p) => p.text)
    .join("");

const KIND_LABELS: Record<HistoryEntry["kind"], string> = {
  answer: "Generated",
  edit: "Edited",
  import: "Imported",
  review: "Reviewed",
  formula: "Recomputed",
  output: "HTTP output",
  revert: "Restored",
};

/** What made a change, in words: "Generated", "Reviewed (accept)" (the run, if any, is shown beside it). */
export function describeOrigin(entry: Pick<HistoryEntry, "kind" | "reason">): string {
  const what = KIND_LABELS[entry.kind] ?? entry.kind;
  return entry.reason ? `${what} (${entry.reason})` : what;
}

const BUSY = new Set(["pending", "running"]);

/** Why the cell cannot be restored now, or null when it can. */
export function restoreBlocked(column: { type: string }, cellStatus: string | undefined): string | null {
  if (column.type === "formula") return "A formula is computed from its inputs: it cannot be restored.";
  if (cellStatus && BUSY.has(cellStatus)) return "The cell is queued or running: wait for it to finish.";
  return null;
}

/** A status worth naming beside a value: an empty value with status "error" says more than "". */
export function statusNote(status: string | null): string | null {
  if (!status || status === "done") return null;
  return (
    { error: "failed", idle: "not run", pending: "queued", running: "running", cancelled: "cancelled" }[status] ??
    status.replace(/_/g, " ")
  );
}
