"use client";
import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import { createPortal } from "react-dom";
import type { CellView, ColumnView } from "../data/types";
import type { RowStore } from "./row-store";
import { AlertIcon, ExternalIcon, SparkleIcon } from "../ui/icons";
import { hostOf, isLowConfidence, parseSources } from "./cell-state";

export interface PopoverTarget {
  rowId: string;
  columnId: string;
  rect: { top: number; bottom: number; left: number; right: number };
  /** Opened by click or keyboard: it stays until closed (hover popovers follow the pointer). */
  pinned: boolean;
  /** Opened from the keyboard: focus moves into it so its links can be reached. */
  takeFocus: boolean;
}

interface Props {
  target: PopoverTarget;
  column: ColumnView;
  rowNumber: number;
  store: RowStore;
  threshold: number;
  onClose: (refocusGrid: boolean) => void;
  onPointerEnter: () => void;
  onPointerLeave: () => void;
}

const WIDTH = 380;

/** Details of one AI cell: status or error, value, confidence, sources with excerpts, reasoning. */
export function CellPopover({ target, column, rowNumber, store, threshold, onClose, onPointerEnter, onPointerLeave }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  // The cell keeps updating while the popover is open (a run finishing, a new source).
  const subscribe = useCallback((fn: () => void) => store.subscribeRow(target.rowId, fn), [store, target.rowId]);
  const record = useSyncExternalStore(subscribe, () => store.get(target.rowId), () => store.get(target.rowId));
  const cell: CellView | undefined = record?.cells[column.name];
  const [pos, setPos] = useState({ top: target.rect.bottom + 4, left: target.rect.left });

  useLayoutEffect(() => {
    const h = ref.current?.offsetHeight ?? 0;
    const below = target.rect.bottom + 4;
    const top = below + h > window.innerHeight - 8 ? Math.max(8, target.rect.top - h - 4) : below;
    const left = Math.max(8, Math.min(target.rect.left, window.innerWidth - WIDTH - 8));
    setPos({ top, left });
  }, [target, cell]);

  useEffect(() => {
    if (target.takeFocus) ref.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose(true);
    };
    const onDown = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) onClose(false);
    };
    document.addEventListener("keydown", onKey);
    if (target.pinned) document.addEventListener("mousedown", onDown);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("mousedown", onDown);
    };
  }, [target, onClose]);

  const meta = cell?.metadata;
  const score = meta?.confidenceScore;
  const sources = parseSources(cell);
  const low = isLowConfidence(cell, threshold);

  return createPortal(
    <div
      ref={ref}
      role="dialog"
      aria-label={`${column.name}, row ${rowNumber}: details`}
      tabIndex={-1}
      onMouseEnter={onPointerEnter}
      onMouseLeave={onPointerLeave}
      style={{ top: pos.top, left: pos.left, width: WIDTH }}
      className="fixed z-50 max-h-[min(32rem,70vh)] overflow-y-auto rounded-xl border border-zinc-200 bg-white text-sm text-zinc-800 shadow-2xl outline-none dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200"
      data-testid="cell-popover"
    >
      <header className="flex items-center gap-2 border-b border-zinc-100 px-4 py-2.5 dark:border-zinc-800">
        <SparkleIcon className="text-violet-500" />
        <p className="min-w-0 flex-1 truncate font-semibold">{column.name}</p>
        <StatusBadge cell={cell} />
        <button type="button" onClick={() => onClose(true)} aria-label="Close details" className="-mr-1 rounded px-1.5 text-lg leading-none text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800">
          ×
        </button>
      </header>
      <div className="space-y-4 px-4 py-3">
        {cell?.error ? (
          <div className="flex gap-2 rounded-lg bg-red-50 p-3 text-red-800 dark:bg-red-950/60 dark:text-red-200">
            <AlertIcon className="mt-0.5 shrink-0" />
            <p>
              <span className="font-mono text-xs font-semibold">{cell.error.code}</span>
              <br />
              {cell.error.message || "The cell failed."}
            </p>
          </div>
        ) : null}
        {cell?.value ? <p className="max-h-32 overflow-y-auto break-words whitespace-pre-wrap">{cell.value}</p> : null}
        {typeof score === "number" ? (
          <section aria-label="Confidence">
            <div className="mb-1 flex items-baseline justify-between text-xs">
              <span className="font-medium text-zinc-600 dark:text-zinc-400">Confidence</span>
              <span className={`font-semibold tabular-nums ${low ? "text-amber-700 dark:text-amber-400" : "text-emerald-700 dark:text-emerald-400"}`}>
                {Math.round(score * 100)}%{low ? " · below review threshold" : ""}
              </span>
            </div>
            <div role="meter" aria-label="Confidence" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(score * 100)} className="h-1.5 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800">
              <div className={`h-full rounded-full ${low ? "bg-amber-500" : "bg-emerald-500"}`} style={{ width: `${Math.max(2, Math.min(100, score * 100))}%` }} />
            </div>
          </section>
        ) : null}
        {sources.length ? (
          <section aria-label="Sources">
            <h3 className="mb-1.5 text-xs font-medium text-zinc-600 dark:text-zinc-400">Sources</h3>
            <ol className="space-y-2">
              {sources.map((s) => (
                <li key={s.url} className="rounded-lg border border-zinc-200 p-2.5 dark:border-zinc-700">
                  <a href={s.url} target="_blank" rel="noopener noreferrer nofollow" className="flex items-center gap-1.5 font-medium text-indigo-700 hover:underline dark:text-indigo-300">
                    <span className="truncate">{s.label}</span>
                    <ExternalIcon className="shrink-0 text-xs" />
                  </a>
                  <p className="truncate text-xs text-zinc-500 dark:text-zinc-400">{hostOf(s.url)}</p>
                  {s.excerpt ? <blockquote className="mt-1.5 line-clamp-4 border-l-2 border-zinc-300 pl-2 text-xs text-zinc-600 italic dark:border-zinc-600 dark:text-zinc-400">{s.excerpt}</blockquote> : null}
                </li>
              ))}
            </ol>
          </section>
        ) : null}
        {meta?.additionalDetails ? (
          <section aria-label="Additional details">
            <h3 className="mb-1 text-xs font-medium text-zinc-600 dark:text-zinc-400">Details</h3>
            <p className="break-words whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">{meta.additionalDetails}</p>
          </section>
        ) : null}
        {cell?.stale ? <p className="rounded-md bg-amber-50 px-2.5 py-1.5 text-xs text-amber-800 dark:bg-amber-950/50 dark:text-amber-200">Out of date: the column’s inputs or settings changed since this value was generated.</p> : null}
      </div>
    </div>,
    document.body,
  );
}

const BADGES: Record<string, string> = {
  done: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200",
  error: "bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-200",
  running: "bg-indigo-100 text-indigo-800 dark:bg-indigo-900/60 dark:text-indigo-200",
  pending: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  idle: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  cancelled: "bg-amber-100 text-amber-800 dark:bg-amber-900/60 dark:text-amber-200",
};

function StatusBadge({ cell }: { cell: CellView | undefined }) {
  const status = cell?.metadata?.suppliedByUser ? "supplied" : (cell?.status ?? "idle");
  const label = { done: "Done", error: "Failed", running: "Running", pending: "Queued", idle: "Not run", supplied: "Entered by hand", cancelled: "Cancelled" }[status] ?? status;
  return <span className={`rounded-full px-2 py-0.5 text-[11px] font-medium ${BADGES[status] ?? BADGES.idle}`}>{label}</span>;
}
