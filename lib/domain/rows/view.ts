import type { ColumnRecord } from "../column-model.ts";
import { expandCell, type CellState } from "../cell-view.ts";

export type RowValues = Record<string, string>;

/** What rendering a row needs of a column (Get Row loads just this much). */
export type ViewColumn = Pick<ColumnRecord, "id" | "name" | "isAiEnabled"> &
  Partial<Pick<ColumnRecord, "columnOptions" | "calibration">>;

/** The spec's standard row: every column by name, "" where there is no value. */
export function standardRow(columns: readonly ViewColumn[], id: string, values: RowValues) {
  // No prototype: a column may be named "__proto__" or "constructor" like any other.
  const cells: Record<string, string> = Object.create(null);
  for (const c of columns) cells[c.name] = values[c.id] ?? "";
  return { id, cells };
}

/**
 * The standard row as JSON text, written without building the object first: streaming Get Rows
 * serialises every row of a base, and this is most of its CPU. Same output as
 * JSON.stringify(standardRow(...)).
 */
export function standardRowWriter(columns: readonly ViewColumn[]): (id: string, values: RowValues) => string {
  const keys = columns.map((c) => ({ id: c.id, key: `${JSON.stringify(c.name)}:` }));
  return (id, values) => {
    let text = `{"id":${JSON.stringify(id)},"cells":{`;
    for (let i = 0; i < keys.length; i++)
      text += (i === 0 ? "" : ",") + keys[i].key + JSON.stringify(values[keys[i].id] ?? "");
    return `${text}}}`;
  };
}

export function expandedRow(
  columns: readonly ViewColumn[],
  id: string,
  values: RowValues,
  cellStates: ReadonlyMap<string, CellState>,
) {
  const cells: Record<string, ReturnType<typeof expandCell>> = Object.create(null);
  for (const c of columns) cells[c.name] = expandCell(c, values[c.id] ?? "", cellStates.get(c.id));
  // A script polls one row until this is false: none of its AI cells is pending or running.
  const processing = [...cellStates.values()].some((s) => s.status === "pending" || s.status === "running");
  return { id, cells, processing };
}

export function rowJson(
  columns: readonly ViewColumn[],
  row: { id: string; values: unknown },
  expand: boolean,
  cellStates?: ReadonlyMap<string, CellState>,
) {
  const values = (row.values ?? {}) as RowValues;
  return expand ? expandedRow(columns, row.id, values, cellStates ?? new Map()) : standardRow(columns, row.id, values);
}
