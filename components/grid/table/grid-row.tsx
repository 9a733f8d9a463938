"use client";
import { memo, useCallback, useSyncExternalStore } from "react";
import type { Cell, CellSelectionState, Row } from "@tanstack/react-table";
import type { VirtualItem } from "@tanstack/react-virtual";
import type { ColumnView } from "../../data/types";
import { Skeleton } from "../../ui/skeleton";
import { CellEditor, type Move } from "../cells/cell-editor";
import { CellContent, cellTone, plainText } from "../cells/grid-cell";
import { gridHints } from "../cells/column-kinds";
import { ChangedMark } from "../cells/changed-mark";
import { changedRecently } from "../query/changed-since";
import type { RowHandle, RowStore } from "../data/row-store";
import { GUTTER_WIDTH, type GridFeatures } from "./use-grid-table";

export const ROW_HEIGHT = 36;
/**
 * A row's layout, style and paint stay inside its fixed box, so rows entering the view while
 * scrolling are laid out alone rather than with the whole grid. Not while a cell is edited: the
 * editor's error message overflows the row.
 */
const ROW_CONTAIN = "strict";
/**
 * The row numbers stay on screen when the grid scrolls sideways. Each sticky gutter cell is a
 * composited layer of its own, which made every frame of a vertical scroll layerize and paint
 * the rows again; at the left edge, while the grid scrolls vertically, the grid marks its gutter
 * flat and the cells lie in place (bench:ui).
 */
export const GUTTER_POSITION = "sticky left-0 group-data-[gutter=flat]/grid:relative";

export type GridCell = Cell<GridFeatures, RowHandle, unknown>;

export interface EditState {
  rowId: string;
  columnId: string;
  initial: string;
  error: string | null;
  saving: boolean;
}

export interface RowCallbacks {
  onCellMouseDown(e: React.MouseEvent, cell: GridCell): void;
  onCellMouseEnter(e: React.MouseEvent, cell: GridCell, rowId: string, columnId: string): void;
  onCellMouseLeave(): void;
  onCellClick(e: React.MouseEvent, rowId: string, columnId: string): void;
  onCellDoubleClick(rowId: string, columnId: string): void;
  commitEdit(value: string, move: Move): void;
  cancelEdit(): void;
}

export const cellDomId = (rowId: string, columnId: string) => `cell-${rowId}-${columnId}`;

const CELL_BOX = "h-full shrink-0 border-r border-b border-zinc-200 px-2 text-[13px] dark:border-zinc-800";
const CELL = `${CELL_BOX} relative flex items-center`;
/**
 * A cell that shows only its text holds it itself, on one line centred in the row's height. It is
 * not positioned: nothing inside it is, and each positioned cell is a paint layer of its own.
 */
const TEXT_CELL = `${CELL_BOX} truncate leading-[35px]`;

interface Props {
  id: string;
  store: RowStore;
  /** The table model's row: undefined for a row read since the model was last rebuilt (not selectable yet). */
  row: Row<GridFeatures, RowHandle> | undefined;
  index: number;
  start: number;
  columns: VirtualItem[];
  dataColumns: ColumnView[];
  totalWidth: number;
  threshold: number;
  /** Generated cells whose value changed at or after this time (ms) carry the changed mark. */
  changedSince: number;
  edit: EditState | null;
  cb: RowCallbacks;
  /**
   * The table's cell selection and this row's checkbox: the cells read them from the table, so
   * they are props only to tell the memo below that the row must render again.
   */
  cellSelection: CellSelectionState;
  selected: boolean;
}

/**
 * One row of the grid. Memoised: scrolling renders the grid on every frame, and only the rows
 * entering the view, or whose record, selection or edit changed, render again (a row's record is
 * its own subscription to the store).
 */
export const GridRow = memo(function GridRow({
  id,
  store,
  row,
  index,
  start,
  columns,
  dataColumns,
  totalWidth,
  threshold,
  changedSince,
  edit,
  cb,
  selected,
}: Props) {
  const subscribe = useCallback((fn: () => void) => store.subscribeRow(id, fn), [store, id]);
  const record = useSyncExternalStore(
    subscribe,
    () => store.get(id),
    () => store.get(id),
  );
  const cells = row?.getAllCells();

  // Each row is its own stacking context (it is transformed): the row being edited is lifted
  // so that the editor's error message can overlap the rows below it.
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className="group/row absolute top-0 left-0 flex"
      style={{
        height: ROW_HEIGHT,
        width: totalWidth,
        transform: `translateY(${start}px)`,
        zIndex: edit ? 10 : undefined,
        contain: edit ? undefined : ROW_CONTAIN,
      }}
    >
      <div
        role="rowheader"
        aria-colindex={1}
        className={`${GUTTER_POSITION} z-10 flex h-full shrink-0 items-center justify-between gap-1 border-r border-b border-zinc-200 px-2 text-xs text-zinc-500 tabular-nums dark:border-zinc-800 dark:text-zinc-400 ${
          selected ? "bg-indigo-50 dark:bg-indigo-950" : "bg-zinc-50 dark:bg-zinc-900"
        }`}
        style={{ width: GUTTER_WIDTH }}
      >
        <span className="min-w-0 truncate">{index + 1}</span>
        <input
          type="checkbox"
          aria-label={`Select row ${index + 1}`}
          checked={selected}
          onChange={row?.getToggleSelectedHandler() ?? (() => undefined)}
          disabled={!row}
          className={`size-3.5 accent-indigo-600 ${selected ? "" : "opacity-0 group-hover/row:opacity-100 focus:opacity-100"}`}
        />
      </div>
      {columns.map((vc, i) => {
        const column = dataColumns[vc.index];
        const cell = cells?.[vc.index + 1];
        if (!column) return null;
        const view = record?.cells[column.name];
        const isSelected = cell?.getIsSelected() ?? false;
        const focused = cell?.getIsFocused() ?? false;
        const editing = edit && edit.columnId === column.id ? edit : null;
        const align = gridHints(column.type).align;
        const changedAt = changedRecently(view, changedSince) ? view?.changedAt : undefined;
        const text = record && !editing && !changedAt ? plainText(column, view, threshold) : null;
        const layout =
          text !== null
            ? `${TEXT_CELL} ${align === "right" ? "text-right tabular-nums" : ""}`
            : `${CELL} ${align === "center" ? "justify-center" : ""}`;
        return (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the grid handles the keyboard for every cell (aria-activedescendant).
          <div
            key={column.id}
            id={cellDomId(id, column.id)}
            role="gridcell"
            aria-colindex={vc.index + 2}
            aria-selected={isSelected}
            className={`${layout} ${cellTone(view, threshold, isSelected)} ${focused ? "z-[1] ring-2 ring-indigo-500 ring-inset" : ""} ${
              editing ? "overflow-visible" : "overflow-hidden"
            }`}
            style={{ width: vc.size, marginLeft: i === 0 ? vc.start - GUTTER_WIDTH : undefined }}
            onMouseDown={(e) => cell && cb.onCellMouseDown(e, cell)}
            onMouseEnter={(e) => cell && cb.onCellMouseEnter(e, cell, id, column.id)}
            onMouseLeave={cb.onCellMouseLeave}
            onClick={(e) => cb.onCellClick(e, id, column.id)}
            onDoubleClick={() => cb.onCellDoubleClick(id, column.id)}
          >
            {text ??
              (record ? (
                <CellContent column={column} cell={view} threshold={threshold} />
              ) : (
                <Skeleton className="h-3 w-2/3" />
              ))}
            {changedAt ? <ChangedMark at={changedAt} /> : null}
            {editing ? (
              <CellEditor
                column={column}
                initial={editing.initial}
                error={editing.error}
                saving={editing.saving}
                width={vc.size}
                onCommit={cb.commitEdit}
                onCancel={cb.cancelEdit}
              />
            ) : null}
          </div>
        );
      })}
    </div>
  );
}, sameRow);

/**
 * The table model is rebuilt whenever rows arrive, with a new object for every row: a row (the same
 * id, compared apart) whose index did not change answers the same through the old object, so it
 * need not render again.
 */
function sameRow(prev: Props, next: Props): boolean {
  for (const key of Object.keys(next) as (keyof Props)[]) {
    if (key === "row" ? prev.row?.index !== next.row?.index || !prev.row !== !next.row : prev[key] !== next[key])
      return false;
  }
  return true;
}

/** A row that is still loading: the scrollbar already spans the whole base. */
export function PlaceholderRow({ index, start, totalWidth }: { index: number; start: number; totalWidth: number }) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-busy="true"
      className="absolute top-0 left-0 flex"
      style={{ height: ROW_HEIGHT, width: totalWidth, transform: `translateY(${start}px)`, contain: ROW_CONTAIN }}
    >
      <div
        role="rowheader"
        aria-colindex={1}
        className={`${GUTTER_POSITION} flex h-full shrink-0 items-center border-r border-b border-zinc-200 bg-zinc-50 px-2 text-xs text-zinc-400 tabular-nums dark:border-zinc-800 dark:bg-zinc-900`}
        style={{ width: GUTTER_WIDTH }}
      >
        {index + 1}
      </div>
      <div
        role="gridcell"
        aria-colindex={2}
        className="flex h-full flex-1 items-center border-b border-zinc-200 px-3 dark:border-zinc-800"
      >
        <Skeleton className="h-3 w-1/3 max-w-60" />
        <span className="sr-only">Loading</span>
      </div>
    </div>
  );
}
