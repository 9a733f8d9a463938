import ExcelJS from "exceljs";
import { appError } from "../errors.ts";

// XLSX → one CSV-like block per sheet, under a "## Sheet: name" heading. Cells show their
// computed value: formula results, hyperlink text, dates as ISO dates.

export interface SheetText {
  text: string;
  /** Sheets whose rows were cut at the row limit. */
  cutSheets: string[];
}

export async function xlsxToText(bytes: Buffer, maxRows: number): Promise<SheetText> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  } catch {
    throw appError("corrupt_file", "The spreadsheet is damaged.");
  }
  const blocks: string[] = [];
  const cutSheets: string[] = [];
  for (const sheet of workbook.worksheets) {
    const lines: string[] = [];
    let cut = false;
    sheet.eachRow({ includeEmpty: false }, (row) => {
      if (lines.length >= maxRows) {
        cut = true;
        return;
      }
      const values: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, col) => {
        values[col - 1] = csvField(cellText(cell.value));
      });
      lines.push(Array.from(values, (v) => v ?? "").join(","));
    });
    if (cut) cutSheets.push(sheet.name);
    if (lines.length) blocks.push(`## Sheet: ${sheet.name}\n\n${lines.join("\n")}`);
  }
  return { text: blocks.join("\n\n"), cutSheets };
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return isoDate(value);
  if (typeof value !== "object") return String(value);
  if ("richText" in value) return value.richText.map((r) => r.text).join("");
  if ("hyperlink" in value) return String(value.text ?? value.hyperlink);
  if ("formula" in value || "sharedFormula" in value) return cellText(value.result as ExcelJS.CellValue);
  if ("error" in value) return String(value.error);
  return "";
}

function isoDate(d: Date): string {
  const iso = d.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
}

function csvField(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
