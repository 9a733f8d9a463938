import { stringify } from "csv-stringify/sync";
import type { CopyOut } from "../../db/copy-out.ts";
import type { PreparedRowsQuery } from "../rows/index.ts";
import type { ExportColumn } from "./columns.ts";
import { guardFormula } from "./guard.ts";
import type { CsvOptions } from "./csv.ts";
import { linePages } from "./pages.ts";

// CSV with its records formatted by the database: each page arrives as one finished text, so
// neither the values' JSON nor a CSV writer passes through JavaScript. The same rules as csv.ts:
// fields holding a quote, comma, CR or LF are quoted with quotes doubled, and free text that a
// spreadsheet would run as a formula gets a leading quote (not with raw). It serves every export
// whose columns the database can read alone (no metadata columns, which need the cells).

/**
 * A field as CSV in SQL: the guard on free text, then quotes when it holds a quote, comma, CR or
 * LF. Inline expressions only: a subquery per field costs a plan node per row.
 */
function fieldSql(c: ExportColumn, raw: boolean): string {
  const v = c.sql!;
  // Stored numbers, dates and checkboxes are normalised: never a formula, never a character to quote.
  if (!isFreeText(c)) return v;
  const quoted = (g: string) =>
    `(CASE WHEN ${v} ~ '[",\\r\\n]' THEN '"' || replace(${g}, '"', '""') || '"' ELSE ${g} END)`;
  if (raw) return quoted(v);
  // Most values need neither the guard nor quotes: one test finds them, and only the rest pay for both.
  const guarded = `(CASE WHEN left(${v}, 1) IN ('=', '+', '-', '@', E'\\t', E'\\r') THEN '''' || ${v} ELSE ${v} END)`;
  return `(CASE WHEN ${v} ~ '[",\\r\\n]|^[-=+@\\t]' THEN ${quoted(guarded)} ELSE ${v} END)`;
}

const isFreeText = (c: ExportColumn) => !(c.kind === "number" || c.kind === "date" || c.kind === "checkbox");

/**
 * A record as CSV in SQL. Most records need no quote and no guard in any field, so one test per
 * record decides, over its free-text fields joined with \x01 before each: a quote, comma, CR or
 * LF anywhere, or a formula start after a \x01. A value holding \x01 may send its record the long
 * way without need, never the reverse. One regular expression per record instead of one per
 * field: each call converts its text to wide characters first, and that was most of the time.
 */
export function csvLineSql(columns: readonly ExportColumn[], raw: boolean): string {
  const full = columns.map((c) => fieldSql(c, raw)).join(` || ',' || `);
  const free = columns.filter(isFreeText);
  if (free.length === 0) return full;
  const plain = columns.map((c) => c.sql!).join(` || ',' || `);
  const probe = free.map((c) => `E'\\x01' || ${c.sql!}`).join(" || ");
  const needs = raw ? `E'[",\\r\\n]'` : `E'[",\\r\\n]|\\x01[-=+@\\t]'`;
  return `(CASE WHEN (${probe}) ~ ${needs} THEN ${full} ELSE ${plain} END)`;
}

function csvHeader(columns: readonly ExportColumn[], options: CsvOptions): string {
  const headers = columns.map((c) => (options.raw ? c.header : guardFormula(c.header)));
  return (
    (options.bom ? "\uFEFF" : "") + stringify([headers], { record_delimiter: "windows", quote_record_delimiter: true })
  );
}

export async function* csvLineChunks(
  query: PreparedRowsQuery,
  columns: readonly ExportColumn[],
  options: CsvOptions,
  maxPageRows?: number,
): AsyncGenerator<string> {
  yield csvHeader(columns, options);
  yield* linePages(query, csvLineSql(columns, options.raw), "\r\n", maxPageRows);
}

/** The same bytes by one COPY (PostgreSQL): one snapshot, and no page to find again; pages when COPYs hold their share of the pool. */
export async function* csvCopyChunks(
  query: PreparedRowsQuery,
  columns: readonly ExportColumn[],
  options: CsvOptions,
  copyOut: CopyOut,
): AsyncGenerator<string | Uint8Array> {
  yield csvHeader(columns, options);
  const line = csvLineSql(columns, options.raw);
  yield* copyOut(query.linesStatement(line, "\r\n")) ?? linePages(query, line, "\r\n");
}
