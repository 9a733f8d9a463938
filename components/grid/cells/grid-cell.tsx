"use client";
import { isGenerated } from "@/lib/domain/fill/kinds.ts";
import type { CellView, ColumnView } from "../../data/types";
import { AlertIcon, CheckboxIcon, CheckIcon } from "../../ui/icons";
import { Spinner } from "../../ui/spinner";
import { editorKind, gridHints, selectChoices, type EditorKind } from "./column-kinds";
import { isBusy, isLowConfidence } from "./cell-state";

/** What a cell shows when it is not being edited: a spinner, an error, or the typed value. */
export function CellContent({
  column,
  cell,
  threshold,
}: {
  column: ColumnView;
  cell: CellView | undefined;
  threshold: number;
}) {
  const status = cell?.status;
  if (isGenerated(column) && isBusy(cell)) {
    const running = status === "running";
    return (
      <span className="flex min-w-0 items-center gap-2 text-zinc-500 dark:text-zinc-400">
        <Spinner
          label={running ? "Running" : "Queued"}
          className={running ? "text-indigo-500" : "text-zinc-400 opacity-70"}
        />
        <span className="truncate text-xs">{running ? "Running…" : "Queued"}</span>
      </span>
    );
  }
  if (status === "error" && cell?.error) {
    const text = `${cell.error.code}: ${cell.error.message}`;
    return (
      <span className="flex min-w-0 items-center gap-1.5 text-red-700 dark:text-red-400" title={text}>
        <AlertIcon label={`Error — ${text}`} className="shrink-0 text-[15px]" />
        <span className="truncate font-mono text-xs">{cell.error.code}</span>
      </span>
    );
  }
  const value = cell?.value ?? "";
  if (status === "skipped") {
    return (
      <span
        className="flex min-w-0 items-center gap-1.5 text-zinc-400 italic dark:text-zinc-500"
        title="Skipped: this row does not match the column's run condition"
      >
        <span className="truncate text-xs">skipped</span>
      </span>
    );
  }
  if (status === "not_found") {
    return (
      <span
        className="flex min-w-0 items-center gap-1.5 text-sky-700 italic dark:text-sky-400"
        title="No data: every provider this column asked had nothing for this row"
      >
        <span className="truncate text-xs">no data</span>
      </span>
    );
  }
  if (status === "cancelled" && value === "") {
    return (
      <span
        className="flex min-w-0 items-center gap-1.5 text-zinc-500 italic dark:text-zinc-400"
        title="Cancelled: its run was cancelled before it finished"
      >
        <span aria-hidden className="size-2 shrink-0 rounded-full border border-zinc-400 dark:border-zinc-500" />
        <span className="truncate text-xs">Cancelled</span>
      </span>
    );
  }
  const low = isLowConfidence(cell, threshold);
  return (
    <>
      <Value column={column} value={value} />
      {low ? <span className="sr-only"> (low confidence)</span> : null}
      {cell?.verified ? (
        <CheckIcon
          label="Verified"
          className="ml-auto shrink-0 pl-1 text-[15px] text-emerald-600 dark:text-emerald-400"
          data-verified=""
        />
      ) : null}
      {status === "cancelled" ? (
        <span
          className="absolute top-1 right-1 size-1.5 rounded-full border border-zinc-400 bg-white dark:bg-zinc-900"
          title="Cancelled: the earlier value is kept"
        >
          <span className="sr-only"> (cancelled; earlier value kept)</span>
        </span>
      ) : null}
      {cell?.stale ? (
        <span
          className="absolute top-1 right-1 size-1.5 rounded-full bg-amber-500"
          title="Out of date: its inputs or settings changed"
        >
          <span className="sr-only"> (out of date)</span>
        </span>
      ) : null}
    </>
  );
}

/**
 * The text a cell shows when it shows nothing else (no status, mark or styled kind): the grid then
 * renders it as the cell's own text, without the elements around it (bench:ui: a fast scroll lays
 * out every row anew, and each element costs style and layout). Null when CellContent is needed.
 */
export function plainText(column: ColumnView, cell: CellView | undefined, threshold: number): string | null {
  if (!cell) return "";
  if (cell.status !== undefined && cell.status !== "done") return null;
  if (cell.verified || cell.stale || isLowConfidence(cell, threshold)) return null;
  const value = cell.value ?? "";
  return value === "" || !STYLED_KINDS.has(editorKind(column)) ? value : null;
}

/** The kinds `Value` draws as more than their text. */
const STYLED_KINDS: ReadonlySet<EditorKind> = new Set<EditorKind>(["checkbox", "url", "file", "select"]);

/** A value by its column's kind: the kinds of STYLED_KINDS here, the rest as text (see plainText). */
function Value({ column, value }: { column: ColumnView; value: string }) {
  if (value === "") return null;
  switch (editorKind(column)) {
    case "checkbox":
      return value === "true" ? (
        <CheckboxIcon label="Checked" className="mx-auto text-base text-indigo-600 dark:text-indigo-400" />
      ) : (
        <span
          className="mx-auto block size-3.5 rounded-[3px] border border-zinc-300 dark:border-zinc-600"
          role="img"
          aria-label="Not checked"
        />
      );
    case "url":
    case "file":
      return (
        <span className="truncate text-indigo-700 underline decoration-indigo-300 underline-offset-2 dark:text-indigo-300 dark:decoration-indigo-700">
          {value.replace(/^https?:\/\/(www\.)?/, "")}
        </span>
      );
    case "select": {
      const i = selectChoices(column).indexOf(value);
      return (
        <span
          className={`truncate rounded-full px-2 py-0.5 text-xs font-medium ${PILL[(Math.max(i, 0)) % PILL.length]}`}
        >
          {value}
        </span>
      );
    }
    default:
      return (
        <span className={`truncate ${gridHints(column.type).align === "right" ? "ml-auto tabular-nums" : ""}`}>
          {value}
        </span>
      );
  }
}

const PILL = [
  "bg-sky-100 text-sky-800 dark:bg-sky-900/60 dark:text-sky-200",
  "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200",
  "bg-amber-100 text-amber-800 dark:bg-amber-900/60 dark:text-amber-200",
  "bg-fuchsia-100 text-fuchsia-800 dark:bg-fuchsia-900/60 dark:text-fuchsia-200",
  "bg-zinc-200 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200",
];

/** Background tint: failed and low-confidence AI cells stand out, selection wins over both. */
export function cellTone(cell: CellView | undefined, threshold: number, selected: boolean): string {
  if (selected) return "bg-indigo-50 dark:bg-indigo-950/50";
  if (cell?.status === "error") return "bg-red-50/70 dark:bg-red-950/30";
  // Hatched, not red: a cancelled cell did not fail, it was stopped.
  if (cell?.status === "cancelled")
    return "bg-[repeating-linear-gradient(135deg,transparent_0_6px,rgb(244_244_245)_6px_8px)] dark:bg-[repeating-linear-gradient(135deg,transparent_0_6px,rgb(39_39_42)_6px_8px)]";
  if (isLowConfidence(cell, threshold)) return "bg-amber-50 dark:bg-amber-950/35";
  return "bg-white dark:bg-zinc-900";
}
