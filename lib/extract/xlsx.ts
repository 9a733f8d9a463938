import { Readable } from "node:stream";
import type { Row } from "exceljs";
import { appError } from "../errors.ts";

// XLSX → one CSV-like block per sheet, under a "## Sheet: name" heading. Cells show their
// computed value: formula results, hyperlink text, dates as ISO dates. The workbook is read as a
// stream, so memory stays bounded by the rows kept, not by the size of the sheets.

export interface SheetText {
  text: string;
  /** Sheets whose rows were cut at the row limit. */
  cutSheets: string[];
}

/**
 * exceljs, loaded at the first spreadsheet: imported with the server, it held about 10 MB of every
 * idle server's heap (bench:server).
 */
export const loadExceljs = async () => (await import("exceljs")).default;

export async function xlsxToText(bytes: Buffer, maxRows: number): Promise<SheetText> {
  try {
    return await streamedSheets(bytes, maxRows);
  } catch (streamError) {
    // exceljs's streaming reader now and then rejects a workbook its whole-file reader takes
    // (it races its own zip entries); the archive's size was already bounded before parsing, so
    // the whole-file reader is a safe second opinion. Only when both refuse is the file damaged.
    try {
      return await loadedSheets(bytes, maxRows);
    } catch {
      console.warn(`xlsx: the streaming reader failed (${(streamError as Error).message})`);
      throw appError("corrupt_file", "The spreadsheet is damaged.");
    }
  }
}

async function streamedSheets(bytes: Buffer, maxRows: number): Promise<SheetText> {
  const ExcelJS = await loadExceljs();
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    worksheets: "emit",
    sharedStrings: "cache",
    hyperlinks: "ignore",
    styles: "cache",
    entries: "ignore",
  });
  const out = new SheetCollector(maxRows);
  for await (const worksheet of reader) {
    const sheet = worksheet as unknown as AsyncIterable<Row> & { name: string };
    const lines: string[] = [];
    let cut = false;
    // The rest of the sheet is still read (the stream has no skip), but not kept.
    for await (const row of sheet) cut = out.addRow(lines, row) || cut;
    out.addSheet(sheet.name, lines, cut);
  }
  return out.result();
}

async function loadedSheets(bytes: Buffer, maxRows: number): Promise<SheetText> {
  const ExcelJS = await loadExceljs();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const out = new SheetCollector(maxRows);
  for (const sheet of workbook.worksheets) {
    const lines: string[] = [];
    let cut = false;
    sheet.eachRow((row) => {
      cut = out.addRow(lines, row) || cut;
    });
    out.addSheet(sheet.name, lines, cut);
  }
  return out.result();
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
