import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import type { TestApp } from "../support/app.ts";
import { dispatch } from "../support/router.ts";
import { checkAgainstOpenApi } from "../support/openapi-check.ts";

// Export suites: a file read whole over the route handler, and parsed back with real readers.

export interface Download {
  status: number;
  headers: Headers;
  bytes: Buffer;
  /** The JSON error body of a refusal. */
  error?: { code: string; message: string; details?: any };
}

export async function download(app: TestApp, baseId: string, query: string, key = app.keyA): Promise<Download> {
  const path = `/api/v1/bases/${baseId}/export?${query}`;
  const res = await dispatch(new Request(`http://localhost${path}`, { headers: { "x-api-key": key } }));
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get("content-type") ?? "";
  const error = type.startsWith("application/json") ? JSON.parse(bytes.toString()).error : undefined;
  checkAgainstOpenApi(
    "GET",
    path,
    res.status,
    type,
    error ? { error } : bytes.toString("latin1"),
    bytes.toString("latin1"),
  );
  return { status: res.status, headers: res.headers, bytes, error };
}

export const BOM = "\uFEFF";

/** A CSV export parsed back: the header row and the records, as text. */
export function csvRows(bytes: Buffer): string[][] {
  return parse(bytes, { bom: true, relax_column_count: false }) as string[][];
}

/** The first sheet of an XLSX export: each row's cell values, exceljs-typed. */
export async function xlsxRows(bytes: Buffer): Promise<{ rows: unknown[][]; sheet: ExcelJS.Worksheet }> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  const rows: unknown[][] = [];
  // columnCount walks every row: read it once.
  const width = sheet.columnCount;
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const values = (row.values as unknown[]).slice(1);
    rows.push(Array.from({ length: width }, (_, i) => values[i] ?? null));
  });
  return { rows, sheet };
}

export const jsonlRows = (bytes: Buffer) =>
  bytes
    .toString("utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
