import type { ColumnRecord } from "./column-model.ts";
import { expandCell, type CellState } from "./cell-view.ts";

export type RowValues = Record<string, string>;

/** The spec's standard row: every column by name, "" where there is no value. */
export function standardRow(columns: readonly ColumnRecord[], id: string, values: RowValues) {
  const cells: Record<string, string> = {};
  for (const c of columns) cells[c.name] = values[c.id] ?? "";
  return { id, cells };
}

export function expandedRow(
  columns: readonly ColumnRecord[],
  id: string,
  values: RowValues,
  cellStates: ReadonlyMap<string, CellState>,
) {
  const cells: Record<string, ReturnType<typeof expandCell>> = {};
  for (const c of columns) cells[c.name] = expandCell(c, values[c.id] ?? "", cellStates.get(c.id));
  return { id, cells };
}

export function rowJson(
  columns: readonly ColumnRecord[],
  row: { id: string; values: unknown },
  expand: boolean,
  cellStates?: ReadonlyMap<string, CellState>,
) {
  const values = (row.values ?? {}) as RowValues;
  return expand ? expandedRow(columns, row.id, values, cellStates ?? new Map()) : standardRow(columns, row.id, values);
}
