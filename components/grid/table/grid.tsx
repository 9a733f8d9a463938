"use client";
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { ColumnView } from "../../data/types";
import { CellPopover } from "../cells/cell-popover";
import { GridHeader, HEADER_HEIGHT, type ColumnMenuActions } from "./grid-header";
import { cellDomId, GridRow, PlaceholderRow, ROW_HEIGHT } from "./grid-row";
import type { RowStore } from "../data/row-store";
import type { GridActions } from "../data/use-grid-actions";
import { useGridInteraction } from "./use-grid-interaction";
import { useRecycledSlots } from "./use-row-window";
import { useRowVirtualizer } from "./use-row-virtualizer";
import { focusedPosition, handleGridKey, selectedCells, selectionAsTsv } from "./keyboard-and-selection";
import { GUTTER_WIDTH, type GridTable } from "./use-grid-table";
import type { Viewport } from "../data/read-plan";

interface Props {
  label: string;
  table: GridTable;
  store: RowStore;
  dataColumns: ColumnView[];
  /** Rows known to exist before the first page has counted them; they render as placeholders. */
  expectedRows: number;
  /** Rows are being read: assistive technology (and tests) wait for the grid to settle. */
  busy: boolean;
  /** Where the grid is and how fast it scrolls: the rows there are read first. */
  onViewport(view: Viewport): void;
  threshold: number;
  /** Generated cells whose value changed at or after this time (ms) are marked as changed. */
  changedSince: number;
  actions: GridActions;
  columnActions: ColumnMenuActions;
  empty?: React.ReactNode;
  /** The tallest body laid out, in px: past it the scroll range is scaled (scroll-scale.ts). */
  maxScrollHeight: number;
}

/**
 * The virtualised grid: only the rows and columns in view are in the DOM, so 100,000 rows cost
 * the same to render as 30. ARIA grid semantics with aria-activedescendant keep focus on the
 * scroll container while the focused cell moves.
 */
export function Grid({
  label,
  table,
  store,
  dataColumns,
  expectedRows,
  busy,
  onViewport,
  threshold,
  changedSince,
  actions,
  columnActions,
  empty,
  maxScrollHeight,
}: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const model = table.getRowModel();
  const rows = model.rows;
  // Grid positions are the store's, and follow it at once (the table model may lag while rows
  // load): rows not loaded yet hold their place as placeholders.
  useSyncExternalStore(store.subscribeList, store.getListVersion, store.getListVersion);
  const rowCount = Math.max(store.total, expectedRows);
  const sizes = useMemo(() => dataColumns.map((c) => table.getColumn(c.id)?.getSize() ?? 200), [dataColumns, table]);
  const totalWidth = GUTTER_WIDTH + sizes.reduce((a, b) => a + b, 0);

  // Rows keep the virtualizer's default index keys: keys that change with the data would make it
  // recompute every item's position whenever rows arrive. React keys are render slots (use-row-window.ts).
  const colKey = useCallback((i: number) => dataColumns[i]?.id ?? i, [dataColumns]);
  const slotsFor = useRecycledSlots();
  const rowV = useRowVirtualizer(scrollRef, rowCount, maxScrollHeight);
  const colV = useVirtualizer({
    horizontal: true,
    count: dataColumns.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => sizes[i] ?? 200,
    overscan: 3,
    useFlushSync: false,
    paddingStart: GUTTER_WIDTH,
    scrollPaddingStart: GUTTER_WIDTH,
    getItemKey: colKey,
  });
  const sizeKey = sizes.join(",") + dataColumns.map((c) => c.id).join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: sizeKey is the trigger: column widths or order changed.
  useEffect(() => colV.measure(), [sizeKey, colV]);
  useReportViewport(rowV.range, rowV.isScrolling, onViewport);

  // A click focuses the grid after choosing its cell; only keyboard focus picks a default cell.
  const pointerDown = useRef(false);
  const focusGrid = useCallback(() => scrollRef.current?.focus({ preventScroll: true }), []);
  const ui = useGridInteraction({ table, store, dataColumns, actions, focusGrid });
  const history = useMemo(
    () => ({ baseId: actions.baseId, onRestored: (rowId: string) => actions.refreshRows([rowId]) }),
    [actions],
  );

  // Keep the focused cell in view as it moves (keyboard, paste, new rows).
  const pos = focusedPosition(table, dataColumns);
  const focusRow = pos ? store.positionOf(pos.rowId) : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll only when the focused cell changes, not on every render.
  useEffect(() => {
    if (!pos || focusRow === undefined) return;
    rowV.scrollToIndex(focusRow);
    colV.scrollToIndex(pos.colIndex, { align: "auto" });
  }, [pos?.rowId, pos?.columnId]);

  const virtualRows = rowV.items;
  const rowIds = virtualRows.map((vr) => store.idAt(vr.index));
  const slotted = slotsFor(rowIds.map((id, at) => id ?? `#${virtualRows[at].index}`));
  const virtualCols = colV.getVirtualItems();
  const focusRendered =
    pos &&
    virtualRows.some((v) => v.index === focusRow) &&
    virtualCols.some((v) => v.index === pos.colIndex) &&
    !ui.edit;

  const onKeyDown = (e: React.KeyboardEvent) =>
    handleGridKey(e, {
      table,
      dataColumns,
      pageRows: Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 2),
      startEdit: ui.startEdit,
      openDetails: (rowId, columnId) => ui.openPopover(rowId, columnId, true, true),
      clearSelected: () => {
        if (!ui.mayWrite()) return;
        const { rowIds, columns } = selectedCells(table, dataColumns);
        void actions.clearCells(rowIds.slice(0, 10_000), columns);
      },
    });

  const onCopy = (e: React.ClipboardEvent) => {
    if (e.target !== e.currentTarget) return;
    const text = selectionAsTsv(table, store, dataColumns);
    if (text === null) return;
    e.preventDefault();
    e.clipboardData.setData("text/plain", text);
  };

  const onPaste = (e: React.ClipboardEvent) => {
    if (e.target !== e.currentTarget) return;
    const text = e.clipboardData.getData("text/plain");
    if (!text) return;
    e.preventDefault();
    if (!ui.mayWrite()) return;
    const at = focusedPosition(table, dataColumns);
    // One value pasted on a cell sets that cell; anything larger becomes new rows.
    if (at && !/[\t\n]/.test(text.replace(/\r?\n$/, ""))) {
      ui.startEdit(at.rowId, at.columnId, text.replace(/\r?\n$/, ""));
      return;
    }
    void actions.pasteRows(text, at?.colIndex ?? 0).then((ids) => {
      if (ids.length) requestAnimationFrame(() => table.setFocusedCell(ids[0], dataColumns[at?.colIndex ?? 0].id));
    });
  };

  const popoverColumn = ui.popover && dataColumns.find((c) => c.id === ui.popover!.columnId);
  const popoverRowIndex = ui.popover ? (store.positionOf(ui.popover.rowId) ?? -1) : -1;

  return (
    <div className="relative h-full">
      <div
        ref={scrollRef}
        role="grid"
        aria-label={label}
        aria-readonly={ui.readOnly || undefined}
        aria-rowcount={rowCount + 1}
        aria-busy={busy}
        aria-colcount={dataColumns.length + 1}
        aria-multiselectable="true"
        aria-activedescendant={focusRendered ? cellDomId(pos.rowId, pos.columnId) : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onCopy={onCopy}
        onPaste={onPaste}
        onScroll={() => ui.popover && ui.setPopover(null)}
        onMouseDownCapture={() => {
          pointerDown.current = true;
          window.addEventListener("mouseup", () => (pointerDown.current = false), { once: true });
        }}
        onFocus={(e) => {
          if (e.target === e.currentTarget && !pointerDown.current && !pos && rows.length && dataColumns.length)
            table.setFocusedCell(rows[0].id, dataColumns[0].id);
        }}
        data-gutter={rowV.isScrolling && !colV.scrollOffset ? "flat" : undefined}
        className="group/grid grid-scroll h-full overflow-auto bg-zinc-50 outline-none dark:bg-zinc-950"
        data-testid="grid"
      >
        <div
          className="relative"
          // A scaled body's rows are placed around the scroll position, and the last ones may reach
          // past its end for a moment: clipped, they cannot stretch the scroll range.
          style={{ height: rowV.totalSize, width: totalWidth, overflowY: rowV.scaled ? "clip" : undefined }}
        >
          <GridHeader
            columns={virtualCols}
            dataColumns={dataColumns}
            totalWidth={totalWidth}
            allSelected={rows.length > 0 && table.getIsAllRowsSelected()}
            someSelected={table.getIsSomeRowsSelected()}
            onToggleAll={() => table.toggleAllRowsSelected()}
            actions={columnActions}
          />
          <div role="rowgroup">
            {slotted.map(({ at, slot }) => {
              const vr = virtualRows[at];
              const id = rowIds[at];
              if (id === undefined)
                return (
                  <PlaceholderRow
                    key={`placeholder-${slot}`}
                    index={vr.index}
                    start={vr.start}
                    totalWidth={totalWidth}
                  />
                );
              const row = model.rowsById[id];
              return (
                <GridRow
                  key={slot}
                  id={id}
                  store={store}
                  row={row}
                  index={vr.index}
                  start={vr.start}
                  columns={virtualCols}
                  dataColumns={dataColumns}
                  totalWidth={totalWidth}
                  threshold={threshold}
                  changedSince={changedSince}
                  edit={ui.edit && ui.edit.rowId === id ? ui.edit : null}
                  cb={ui.callbacks}
                  cellSelection={table.state.cellSelection}
                  selected={row?.getIsSelected() ?? false}
                />
              );
            })}
          </div>
        </div>
      </div>
      {rowCount === 0 && empty ? (
        <div className="pointer-events-none absolute inset-x-0 bottom-0" style={{ top: HEADER_HEIGHT }}>
          {empty}
        </div>
      ) : null}
      {ui.popover && popoverColumn ? (
        <CellPopover
          target={ui.popover}
          column={popoverColumn}
          rowNumber={popoverRowIndex + 1}
          store={store}
          threshold={threshold}
          onClose={ui.closePopover}
          history={history}
          {...ui.popoverHandlers}
        />
      ) : null}
    </div>
  );
}

/**
 * Tells the loader which rows are in view whenever that changes, with the scroll's speed (rows a
 * second, smoothed), and a speed of 0 once the scroll stops. The first move after a pause counts as
 * a jump, not a speed: a jump to row 60,000 must read the rows there, not far past them.
 */
function useReportViewport(
  range: { startIndex: number; endIndex: number } | null,
  scrolling: boolean,
  onViewport: (v: Viewport) => void,
) {
  const last = useRef({ start: 0, at: 0, speed: 0, moving: false });
  const start = range?.startIndex ?? 0;
  const end = (range?.endIndex ?? 0) + 1;
  useEffect(() => {
    const now = performance.now();
    const l = last.current;
    const dt = (now - l.at) / 1000;
    const moving = scrolling && dt > 0 && dt < 0.5;
    const instant = moving ? (start - l.start) / dt : 0;
    const speed = moving && l.moving ? 0.3 * l.speed + 0.7 * instant : 0;
    last.current = { start, at: now, speed, moving };
    onViewport({ start, end, rowsPerSecond: speed, scrolling });
  }, [start, end, scrolling, onViewport]);
}
