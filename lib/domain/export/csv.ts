import { stringify } from "csv-stringify";
import type { ExportColumn, ExportRow, ExportValue } from "./columns.ts";
import { guardFormula } from "./guard.ts";
import { pumpThrough } from "./pages.ts";

// CSV as RFC 4180 describes it: a header row of column names, CRLF, fields quoted when they hold
// a comma, a quote or a line break; UTF-8, by default with a BOM so that Excel reads accents.

export interface CsvOptions {
  bom: boolean;
  /** Without the formula guard. */
  raw: boolean;
}

function csvText(value: ExportValue): string {
  if (value === null) return "";
  if (Array.isArray(value)) return value.join("\n");
  return String(value);
}

export function csvCells(columns: readonly ExportColumn[], raw: boolean): (row: ExportRow) => string[] {
  const guarded = columns.map((c) => !raw && (c.kind === "text" || c.kind === "list"));
  return (row) => columns.map((c, i) => (guarded[i] ? guardFormula(csvText(c.read(row))) : csvText(c.read(row))));
}

// quote_record_delimiter: a custom record delimiter would otherwise stop a lone LF or CR in a field
// from being quoted, and the field would split the record.
export async function* csvChunks(
  columns: readonly ExportColumn[],
  pages: AsyncIterable<ExportRow[]>,
  options: CsvOptions,
): AsyncGenerator<string | Uint8Array> {
  const cells = csvCells(columns, options.raw);
  const headers = columns.map((c) => (options.raw ? c.header : guardFormula(c.header)));
  async function* records(): AsyncGenerator<string[][]> {
    yield [headers];
    for await (const page of pages) yield page.map(cells);
  }
  yield* pumpThrough(
    stringify({ bom: options.bom, record_delimiter: "windows", quote_record_delimiter: true }),
    records(),
  );
}
