import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { isAppError, type ErrorCode } from "../errors.ts";
import { excelCellText } from "./xlsx.ts";
import { openXlsx, WORKBOOK_LIMITS, type XlsxWorkbook } from "./xlsx-workbook.ts";

// An import's worksheet, read in an extraction thread (extract-worker.ts) and written out as JSON
// Lines, one `[line, fields]` array a row, which the import then streams on the request thread.
// The workbook's XML is parsed where a heap limit and a deadline hold, never beside requests.

export interface SheetRowsTask {
  sheetRows: {
    /** The stored workbook. */
    path: string;
    /** The worksheet by name (case-insensitive, NFC); the first one otherwise. */
    sheet?: string;
    /** Where the rows go; written whole or not at all. */
    out: string;
    maxInflatedBytes: number;
  };
}

/** `line` is set when the file itself does not parse (the import's invalid_file). */
export type SheetRowsResult =
  | { ok: true; rows: number }
  | { ok: false; code: ErrorCode; message: string; line?: number };

export async function writeSheetRows({
  path,
  sheet,
  out,
  maxInflatedBytes,
}: SheetRowsTask["sheetRows"]): Promise<SheetRowsResult> {
  let book: XlsxWorkbook | undefined;
  const partial = `${out}.part`;
  try {
    book = await openXlsx(path, { ...WORKBOOK_LIMITS, maxInflatedBytes });
    const wanted = sheet?.normalize("NFC").toLowerCase();
    const chosen =
      wanted === undefined ? book.sheets[0] : book.sheets.find((s) => s.name.normalize("NFC").toLowerCase() === wanted);
    if (!chosen) {
      if (sheet !== undefined)
        return { ok: false, code: "validation_failed", message: `The workbook has no sheet named "${sheet}".` };
      return { ok: false, code: "invalid_file", message: "The workbook has no worksheet.", line: 1 };
    }
    const file = createWriteStream(partial);
    let rows = 0;
    try {
      for await (const row of chosen.rows()) {
        // Array.from, not map: an empty cell is a hole in exceljs's array, and must become "".
        const fields = Array.from((row.values as unknown[]).slice(1), excelCellText);
        if (!file.write(`${JSON.stringify([row.number, fields])}\n`)) await once(file, "drain");
        rows++;
      }
    } finally {
      file.end();
      await once(file, "close");
    }
    await rename(partial, out);
    return { ok: true, rows };
  } catch (e) {
    await rm(partial, { force: true });
    if (isAppError(e)) return { ok: false, code: e.code, message: e.message };
    return {
      ok: false,
      code: "invalid_file",
      message: `The XLSX file cannot be read: ${(e as Error).message?.slice(0, 200) || "it is corrupt"}.`,
      line: 1,
    };
  } finally {
    book?.close();
  }
}
