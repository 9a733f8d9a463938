import { Readable } from "node:stream";
import ExcelJS from "exceljs";
import { appError } from "../errors.ts";

// XLSX → one CSV-like block per sheet, under a "## Sheet: name" heading. Cells show their
// computed value: formula results, hyperlink text, dates as ISO dates. The workbook is read as a
// stream, so memory stays bounded by the rows kept, not by the size of the sheets.

export interface SheetText {
  text: string;
  /** Sheets whose rows were cut at the row limit. */
  cutSheets: string[];
}

export async function xlsxToText(bytes: Buffer, maxRows: number): Promise<SheetText> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    worksheets: "emit",
    sharedStrings: "cache",
    hyperlinks: "ignore",
    styles: "cache",
    entries: "ignore",
  });
  const blocks: string[] = [];
  const cutSheets: string[] = [];
  try {
    for await (const worksheet of reader) {
      const sheet = worksheet as unknown as AsyncIterable<ExcelJS.Row> & { name: string };
      const lines: string[] = [];
      let cut = false;
      for await (const row of sheet) {
        // The rest of the sheet is still read (the stream has no skip), but not kept.
        if (lines.length >= maxRows) {
          cut = true;
          continue;
        }
        const values = (row.values as unknown[]).slice(1).map((v) => csvField(excelCellText(v)));
        if (values.some(Boolean)) lines.push(values.join(","));
      }
      if (cut) cutSheets.push(sheet.name);
      if (lines.length) blocks.push(`## Sheet: ${sheet.name}\n\n${lines.join("\n")}`);
    }
  } catch {
    throw appError("corrupt_file", "The spreadsheet is damaged.");
  }
  return { text: blocks.join("\n\n"), cutSheets };
}

/** A cell's value as text: formula results, rich and hyperlink text, dates as ISO dates. */
export function excelCellText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (v instanceof Date) {
    const iso = v.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
  }
  if (typeof v === "object") {
    const o = v as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: string; hyperlink?: string };
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
