import type { ColumnRecord } from "../column-model.ts";
import { expandCell, type CellState } from "../cell-view.ts";
import { sqlId } from "../query/index.ts";

export type RowValues = Record<string, string>;

/** What rendering a row needs of a column (Get Row loads just this much). */
export type ViewColumn = Pick<ColumnRecord, "id" | "name" | "isAiEnabled"> &
  Partial<Pick<ColumnRecord, "fill" | "columnOptions" | "calibration">>;

/** The spec's standard row: every column by name, "" where there is no value. */
export function standardRow(columns: readonly ViewColumn[], id: string, values: RowValues) {
  // No prototype: a column may be named "__proto__" or "constructor" like any other.
  const cells: Record<string, string> = Object.create(null);
  for (const c of columns) cells[c.name] = values[c.id] ?? "";
  return { id, cells };
}

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * The standard row as JSON text, written by the database (an SQL expression over `r`): the same
 * bytes as standardRowWriter, since PostgreSQL escapes a JSON string as JSON.stringify does for any
 * text it can store. Streaming every row of a base then parses no jsonb and builds no object in
 * the server's thread, which only joins the texts the database sends.
 */
export function standardRowSql(columns: readonly ViewColumn[]): string {
  const cells = columns.map(
    (c, i) =>
      ` || ${sqlText(`${i === 0 ? "" : ","}${JSON.stringify(c.name)}:`)} || to_json(COALESCE(r."values"->>${sqlId(c.id)}, ''))::text`,
  );
  return `'{"id":' || to_json(r.id)::text || ',"cells":{'${cells.join("")} || '}}'`;
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
