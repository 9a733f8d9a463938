"use client";
import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import { createPortal } from "react-dom";
import type { CellView, ColumnView } from "../../data/types";
import type { RowStore } from "../data/row-store";
import { SparkleIcon } from "../../ui/icons";
import { CellDetails, StatusBadge } from "./cell-details";
import { CellHistory } from "../history/cell-history";
import { PopoverTabs, type PopoverTab } from "./popover-tabs";

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
  /** The base, and how to read a row again once a value is restored from its history. */
  history: { baseId: string; onRestored: (rowId: string) => void };
}

const WIDTH = 380;

/** Details of one AI cell: status or error, value, confidence, sources with excerpts, reasoning. */
export function CellPopover({
  target,
  column,
  rowNumber,
  store,
  threshold,
  onClose,
  onPointerEnter,
  onPointerLeave,
  history,
}: Props) {
  const ref = useRef<HTMLDivElement>(null);
  // The cell keeps updating while the popover is open (a run finishing, a new source).
  const subscribe = useCallback((fn: () => void) => store.subscribeRow(target.rowId, fn), [store, target.rowId]);
  const record = useSyncExternalStore(
    subscribe,
    () => store.get(target.rowId),
    () => store.get(target.rowId),
  );
  const cell: CellView | undefined = record?.cells[column.name];
  const [pos, setPos] = useState({ top: target.rect.bottom + 4, left: target.rect.left });
  const [tab, setTab] = useState<PopoverTab>("details");

  // biome-ignore lint/correctness/useExhaustiveDependencies: cell and tab are the triggers: new content changes the height.
  useLayoutEffect(() => {
    const h = ref.current?.offsetHeight ?? 0;
    const below = target.rect.bottom + 4;
    const top = below + h > window.innerHeight - 8 ? Math.max(8, target.rect.top - h - 4) : below;
    const left = Math.max(8, Math.min(target.rect.left, window.innerWidth - WIDTH - 8));
    setPos({ top, left });
  }, [target, cell, tab]);

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
        {column.isAiEnabled ? <SparkleIcon className="text-violet-500" /> : null}
        <p className="min-w-0 flex-1 truncate font-semibold">{column.name}</p>
        <StatusBadge cell={cell} />
        <button
          type="button"
          onClick={() => onClose(true)}
          aria-label="Close details"
          className="-mr-1 rounded px-1.5 text-lg leading-none text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800"
        >
          ×
        </button>
      </header>
      <PopoverTabs tab={tab} onTab={setTab} idPrefix={`${target.rowId}-${column.id}`} />
      <div
        role="tabpanel"
        id={`${target.rowId}-${column.id}-${tab}`}
        aria-labelledby={`${target.rowId}-${column.id}-${tab}-tab`}
      >
        {tab === "details" ? (
          <CellDetails cell={cell} threshold={threshold} />
        ) : (
          <CellHistory
            baseId={history.baseId}
            rowId={target.rowId}
            column={column}
            cellStatus={cell?.status}
            onRestored={history.onRestored}
          />
        )}
      </div>
    </div>,
    document.body,
  );
}
