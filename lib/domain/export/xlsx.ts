import ExcelJS from "exceljs";
import { PassThrough } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import type { ExportColumn, ExportRow, ExportValue } from "./columns.ts";
import { guardFormula } from "./guard.ts";
import { coalesce } from "./pages.ts";

// XLSX through exceljs's streaming writer: typed cells (numbers, dates, booleans), a bold frozen
// header, column widths from the header and the first page. Shared strings are off: that table
// would hold every distinct text of the file in memory.

/** Excel's own cap on the text of a cell. */
export const XLSX_MAX_CELL_CHARS = 32_767;
/** How much written XML and output may wait before the next page is formatted. */
const BACKLOG_BYTES = 1024 * 1024;
const DATE_FORMAT = "yyyy-mm-dd";
const DATE_TIME_FORMAT = "yyyy-mm-dd hh:mm:ss";
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

const clip = (text: string) => (text.length > XLSX_MAX_CELL_CHARS ? text.slice(0, XLSX_MAX_CELL_CHARS) : text);

function typedCell(column: ExportColumn, value: ExportValue, raw: boolean): string | number | boolean | Date | null {
  if (value === null || value === "") return null;
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value))
    return value.length === 0 ? null : clip(raw ? value.join("\n") : guardFormula(value.join("\n")));
  switch (column.kind) {
    case "number": {
      const n = Number(value);
      return Number.isFinite(n) ? n : value;
    }
    case "date": {
      const m = DATE_ONLY.exec(value);
      const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : new Date(value);
      return Number.isNaN(d.getTime()) ? value : d;
    }
    case "checkbox":
      return value === "true";
    default:
      return clip(raw ? value : guardFormula(value));
  }
}

/** A sheet name Excel accepts: at most 31 characters, none of []:*?/\ . */
export const sheetName = (name: string) =>
  name
    .replace(/[[\]:*?/\\\u0000-\u001f]/g, " ")
    .trim()
    .slice(0, 31) || "Export";

function widthOf(column: ExportColumn, sample: readonly ExportRow[]): number {
  let longest = column.header.length;
  for (const row of sample) {
    const v = column.read(row);
    const text = Array.isArray(v) ? (v[0] ?? "") : v === null ? "" : String(v);
    longest = Math.max(longest, Math.min(text.length, 80));
  }
  return Math.min(Math.max(longest + 2, 10), 60);
}

/** A stream of the zip library's own copy of `readable-stream`, which predates `writableLength`. */
interface BufferedStream {
  _writableState?: { length: number };
  _readableState?: { length: number };
}

/**
 * The bytes written and not yet taken on: the sheet's XML queued for deflate (exceljs's stream hands
 * each 64 KB to the zip entry's pass-through without waiting for it) and the zip output not yet read.
 */
function backlog(sheet: ExcelJS.Worksheet, out: PassThrough): number {
  // exceljs's internals: should they change shape, the pacing falls back to the output alone.
  const entries = (sheet as unknown as { stream?: { pipes?: BufferedStream[] } }).stream?.pipes ?? [];
  let queued = out.readableLength;
  for (const e of entries) queued += (e._writableState?.length ?? 0) + (e._readableState?.length ?? 0);
  return queued;
}

export async function* xlsxChunks(
  columns: readonly ExportColumn[],
  pages: AsyncIterable<ExportRow[]>,
  options: { raw: boolean; sheet: string },
) {
  const out = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet(sheetName(options.sheet), { views: [{ state: "frozen", ySplit: 1 }] });
  const stop = new AbortController();

  const writing = (async () => {
    try {
      const iterator = pages[Symbol.asyncIterator]();
      const first = await iterator.next();
      const sample = first.done ? [] : first.value;
      sheet.columns = columns.map((c) => ({
        header: options.raw ? c.header : guardFormula(c.header),
        width: widthOf(c, sample),
        ...(c.kind === "date" ? { style: { numFmt: DATE_FORMAT } } : {}),
      }));
      sheet.getRow(1).font = { bold: true };
      sheet.getRow(1).commit();
      let page = first;
      while (!page.done) {
        for (const row of page.value) addRow(row);
        // exceljs writes without back-pressure: wait here until deflate and the reader have caught up.
        while (backlog(sheet, out) > BACKLOG_BYTES && !stop.signal.aborted) await sleep(2);
        if (stop.signal.aborted) return void (await iterator.return?.(undefined));
        page = await iterator.next();
      }
      sheet.commit();
      await book.commit();
    } catch (e) {
      out.destroy(e as Error);
    }
  })();

  function addRow(row: ExportRow) {
    const r = sheet.addRow(columns.map((c) => typedCell(c, c.read(row), options.raw)));
    columns.forEach((c, i) => {
      if (c.kind !== "date") return;
      const cell = r.getCell(i + 1);
      if (cell.value instanceof Date)
        cell.numFmt = DATE_ONLY.test(String(c.read(row))) ? DATE_FORMAT : DATE_TIME_FORMAT;
    });
    r.commit();
  }

  try {
    yield* coalesce(out, 64 * 1024);
    await writing;
  } finally {
    stop.abort();
    out.destroy();
  }
}
