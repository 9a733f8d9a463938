import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import type { Row } from "exceljs";

// A workbook read through its zip's central directory, one sheet at a time, row by row.
//
// exceljs's streaming reader walks the archive front to back. Writers store the workbook entry,
// which names the sheets, after the sheets, and that pass now and then ends without delivering it,
// so the reader fails on a sound file (exceljs issue 3064). Here the directory says where every
// entry is: the relationships, the workbook, the shared strings and the styles are parsed first,
// by exceljs's own parsers, then a sheet only when it is read. A sheet nobody reads costs nothing.

export interface WorkbookSheet {
  /** The sheet's tab name. */
  name: string;
  /** Its rows, streamed. Read one sheet at a time. */
  rows(): AsyncIterable<Row>;
}

export interface XlsxWorkbook {
  /** Worksheets in tab order (chart sheets left out). */
  sheets: WorkbookSheet[];
  /** Releases the file handles of sheets left half read. */
  close(): void;
}

/** exceljs's reader, whose per-entry parsers this drives; they are stable across exceljs 4. */
interface EntryParsers {
  model?: { sheets?: { name: string; rId: string }[] };
  workbookRels?: { Id: string; Target: string }[];
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncIterable<unknown>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(entry: Readable, sheetNo: string): Iterable<{ value: AsyncIterable<Row> & { name: string } }>;
}

export async function openXlsx(input: string | Buffer): Promise<XlsxWorkbook> {
  const open = new Set<Readable>();
  const track = (s: Readable) => {
    open.add(s);
    s.once("close", () => open.delete(s));
    return s;
  };
  const close = () => {
    for (const s of open) s.destroy();
    open.clear();
  };
  try {
    const { default: directory } = await import("unzipper/lib/Open/directory.js");
    const { files } = await directory(byteSource(input, track));
    const entry = (path: string) => files.find((f) => f.path === path);
    // Imported at the first workbook: imported with the server, exceljs held about 10 MB of every
    // idle server's heap (bench:server).
    const ExcelJS = (await import("exceljs")).default;
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), { sharedStrings: "cache", styles: "cache", hyperlinks: "ignore", worksheets: "emit", entries: "ignore" }) as unknown as EntryParsers;
    const rels = entry("xl/_rels/workbook.xml.rels");
    const book = entry("xl/workbook.xml");
    if (!rels || !book) throw new Error("it has no workbook");
    await reader._parseRels(track(rels.stream()));
    await reader._parseWorkbook(track(book.stream()));
    const strings = entry("xl/sharedStrings.xml");
    if (strings) for await (const _ of reader._parseSharedStrings(track(strings.stream()))) void _;
    const styles = entry("xl/styles.xml");
    if (styles) await reader._parseStyles(track(styles.stream()));

    const sheets: WorkbookSheet[] = [];
    for (const { name, rId } of reader.model?.sheets ?? []) {
      const target = reader.workbookRels?.find((r) => r.Id === rId)?.Target ?? "";
      const sheetNo = /(?:^|\/)worksheets\/sheet(\d+)\.xml$/.exec(target)?.[1];
      const file = sheetNo ? entry(target.startsWith("/") ? target.slice(1) : `xl/${target}`) : undefined;
      if (!file || !sheetNo) continue;
      sheets.push({
        name,
        rows: () => {
          const [{ value }] = reader._parseWorksheet(track(file.stream()), sheetNo);
          return value;
        },
      });
    }
    return { sheets, close };
  } catch (e) {
    close();
    throw e;
  }
}

/** Where the archive's bytes come from: unzipper reads them by offset. */
function byteSource(input: string | Buffer, track: (s: Readable) => Readable) {
  if (typeof input === "string") {
    return {
      size: async () => (await stat(input)).size,
      stream: (offset: number, length?: number) => track(createReadStream(input, { start: offset, ...(length ? { end: offset + length - 1 } : {}) })),
    };
  }
  return {
    size: async () => input.length,
    stream: (offset: number, length?: number) => Readable.from([input.subarray(offset, length ? offset + length : undefined)]),
  };
}
