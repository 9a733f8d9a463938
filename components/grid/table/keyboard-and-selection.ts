import type { ColumnView } from "../../data/types";
import { toTsv } from "./tsv";
import type { RowStore } from "../data/row-store";
import type { GridTable } from "./use-grid-table";

// Spreadsheet keys for the focused grid. The table's cell-selection feature owns the focused
// cell and ranges; this maps keys onto it and onto editing.

export interface KeyContext {
  table: GridTable;
  dataColumns: ColumnView[];
  pageRows: number;
  startEdit(rowId: string, columnId: string, initial?: string): void;
  openDetails(rowId: string, columnId: string): boolean;
  clearSelected(): void;
}

type Dir = "up" | "down" | "left" | "right";
const ARROWS: Record<string, Dir> = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };

export function focusAt(table: GridTable, dataColumns: ColumnView[], rowIndex: number, colIndex: number) {
  const rows = table.getRowModel().rows;
  if (!rows.length || !dataColumns.length) return;
  const r = rows[Math.max(0, Math.min(rows.length - 1, rowIndex))];
  const c = dataColumns[Math.max(0, Math.min(dataColumns.length - 1, colIndex))];
  table.setFocusedCell(r.id, c.id);
}

/** Where the focused cell is, as row and data-column indexes. */
export function focusedPosition(table: GridTable, dataColumns: ColumnView[]) {
  const cell = table.getFocusedCell();
  if (!cell) return null;
  const colIndex = dataColumns.findIndex((c) => c.id === cell.column.id);
  if (colIndex < 0) return null;
  return { rowIndex: cell.row.index, colIndex, rowId: cell.row.id, columnId: cell.column.id };
}

export function handleGridKey(e: React.KeyboardEvent, g: KeyContext): void {
  if (e.target !== e.currentTarget) return;
  const { table, dataColumns } = g;
  const mod = e.ctrlKey || e.metaKey;
  const pos = focusedPosition(table, dataColumns);
  const done = () => e.preventDefault();

  if (!pos) {
    if (ARROWS[e.key] || e.key === "Tab" || e.key === "Enter") {
      focusAt(table, dataColumns, 0, 0);
      done();
    }
    return;
  }
  const dir = ARROWS[e.key];
  if (dir) {
    if (e.shiftKey) table.extendCellSelection(dir);
    else if (mod)
      focusAt(
        table,
        dataColumns,
        dir === "up" ? 0 : dir === "down" ? Infinity : pos.rowIndex,
        dir === "left" ? 0 : dir === "right" ? Infinity : pos.colIndex,
      );
    else table.moveCellSelection(dir);
    return done();
  }
  switch (e.key) {
    case "Tab": {
      // At the row's edge Tab leaves the grid, so keyboard users are never trapped in it.
      const edge = e.shiftKey ? pos.colIndex === 0 : pos.colIndex === dataColumns.length - 1;
      if (edge) return;
      table.moveCellSelection(e.shiftKey ? "left" : "right");
      return done();
    }
    case "Enter":
    case "F2":
      g.startEdit(pos.rowId, pos.columnId);
      return done();
    case " ":
      if (!g.openDetails(pos.rowId, pos.columnId)) g.startEdit(pos.rowId, pos.columnId);
      return done();
    case "Delete":
    case "Backspace":
      g.clearSelected();
      return done();
    case "Home":
      focusAt(table, dataColumns, mod ? 0 : pos.rowIndex, 0);
      return done();
    case "End":
      focusAt(table, dataColumns, mod ? Infinity : pos.rowIndex, Infinity);
      return done();
    case "PageDown":
    case "PageUp":
      focusAt(table, dataColumns, pos.rowIndex + (e.key === "PageDown" ? g.pageRows : -g.pageRows), pos.colIndex);
      return done();
    case "Escape":
      table.setFocusedCell(pos.rowId, pos.columnId);
      return done();
  }
  if (mod && e.key.toLowerCase() === "a") {
    table.selectAllCells();
    return done();
  }
  if (e.key.length === 1 && !mod && !e.altKey) {
    // Typing replaces the value, as in a spreadsheet; the key itself becomes the first character.
    g.startEdit(pos.rowId, pos.columnId, e.key);
    done();
  }
}

/** The selected rectangle as TSV, read from the row store (what the user sees). */
export function selectionAsTsv(table: GridTable, store: RowStore, dataColumns: ColumnView[]): string | null {
  const bounds = table.getCellSelectionBounds();
  const b = bounds[bounds.length - 1];
  if (!b) return null;
  const rows = table.getRowModel().rows;
  const leaf = table.getAllLeafColumns();
  const byId = new Map(dataColumns.map((c) => [c.id, c]));
  const cols = leaf.slice(b.minColumnIndex, b.maxColumnIndex + 1).flatMap((l) => byId.get(l.id) ?? []);
  const out: string[][] = [];
  for (let r = b.minRowIndex; r <= b.maxRowIndex && r < rows.length; r++) {
    const cells = store.get(rows[r].id)?.cells ?? {};
    out.push(cols.map((c) => cells[c.name]?.value ?? ""));
  }
  return toTsv(out);
}

/** The rows and data columns the selection covers. */
export function selectedCells(table: GridTable, dataColumns: ColumnView[]) {
  const ids = new Set(table.getCellSelectionColumnIds());
  return { rowIds: table.getCellSelectionRowIds(), columns: dataColumns.filter((c) => ids.has(c.id)) };
}
