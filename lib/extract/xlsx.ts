import type { Row } from "exceljs";
import { appError, isAppError } from "../errors.ts";
import { openXlsx, WORKBOOK_LIMITS, type XlsxWorkbook } from "./xlsx-workbook.ts";

// XLSX → one CSV-like block per sheet, under a "## Sheet: name" heading. Cells show their
// computed value: formula results, hyperlink text, dates as ISO dates. Each sheet is read as a
// stream, and only up to the row limit, so memory stays bounded by the rows kept.

export interface SheetText {
  text: string;
  /** Sheets whose rows were cut at the row limit. */
  cutSheets: string[];
}

export async function xlsxToText(
  bytes: Buffer,
  maxRows: number,
  maxInflatedBytes = WORKBOOK_LIMITS.maxInflatedBytes,
): Promise<SheetText> {
  let book: XlsxWorkbook | undefined;
  try {
    book = await openXlsx(bytes, { ...WORKBOOK_LIMITS, maxInflatedBytes });
    const out = new SheetCollector(maxRows);
    for (const sheet of book.sheets) {
      const lines: string[] = [];
      let cut = false;
      for await (const row of sheet.rows()) {
        // A row past the limit only tells that the sheet was cut: the rest is not read.
        if ((cut = out.addRow(lines, row))) break;
      }
      out.addSheet(sheet.name, lines, cut);
    }
    return out.result();
  } catch (e) {
    if (isAppError(e)) throw e;
    console.warn(`xlsx: the workbook cannot be read (${(e as Error).message})`);
    throw appError("corrupt_file", "The spreadsheet is damaged.");
  } finally {
    book?.close();
  }
}

// No TypeScript parameter properties here: extraction threads load this file with Node's own
// type stripping, which only erases types.
class SheetCollector {
  private blocks: string[] = [];
  private cutSheets: string[] = [];
  private maxRows: number;
  constructor(maxRows: number) {
    this.maxRows = maxRows;
  }

  /** Keeps the row's line unless the sheet is full; answers whether the row was cut. */
  addRow(lines: string[], row: Row): boolean {
    if (lines.length >= this.maxRows) return true;
    const values = (row.values as unknown[]).slice(1).map((v) => csvField(excelCellText(v)));
    if (values.some(Boolean)) lines.push(values.join(","));
    return false;
  }

  addSheet(name: string, lines: string[], cut: boolean) {
    if (cut) this.cutSheets.push(name);
    if (lines.length) this.blocks.push(`## Sheet: ${name}\n\n${lines.join("\n")}`);
  }

  result(): SheetText {
    return { text: this.blocks.join("\n\n"), cutSheets: this.cutSheets };
  }
}

/** A cell's value as text: formula results, rich and hyperlink text, dates as ISO dates. */
export function excelCellText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (v instanceof Date) {
    const iso = v.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
  }
  if (typeof v === "object") {
    const o = v as {
      richText?: { text: string }[];
      text?: unknown;
      result?: unknown;
      error?: string;
      hyperlink?: string;
    };
    if (o.richText) return o.richText.map((r) => r.text).join("");
    if ("result" in o) return excelCellText(o.result);
    if (o.hyperlink !== undefined) return excelCellText(o.text ?? o.hyperlink);
    if (o.text !== undefined) return excelCellText(o.text);
    if (o.error) return "";
    return JSON.stringify(v);
  }
  return String(v);
}

function csvField(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
