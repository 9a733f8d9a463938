import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable, Transform, pipeline } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import type { Row } from "exceljs";
import { appError } from "../errors.ts";

// A workbook read through its zip's central directory, one sheet at a time, row by row.
//
// exceljs's streaming reader walks the archive front to back. Writers store the workbook entry,
// which names the sheets, after the sheets, and that pass now and then ends without delivering it,
// so the reader fails on a sound file (exceljs issue 3064). Here the directory says where every
// entry is: the relationships, the workbook, the shared strings and the styles are parsed first,
// by exceljs's own parsers, then a sheet only when it is read. A sheet nobody reads costs nothing.

/**
 * What a workbook may inflate to, counted on the bytes that really come out of the archive (the
 * sizes it declares can lie). Shared strings and styles are held in memory for the whole read.
 */
export interface WorkbookLimits {
  /** All the parts read, together. */
  maxInflatedBytes: number;
  /**
   * The shared strings part: every one of its strings is kept until the workbook is closed. Each of
   * the other parts parsed whole (styles, the workbook, its relationships) is held to it as well.
   */
  maxSharedStringBytes: number;
  /** Inflated bytes per packed byte of a part, once that part passes 1 MB. */
  maxCompressionRatio: number;
}

/** The defaults, for file analysis and imports alike (docs/security.md). */
export const WORKBOOK_LIMITS: WorkbookLimits = {
  maxInflatedBytes: 256 * 1024 * 1024,
  maxSharedStringBytes: 32 * 1024 * 1024,
  maxCompressionRatio: 50,
};

const RATIO_FLOOR_BYTES = 1024 * 1024;

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

export async function openXlsx(
  input: string | Buffer,
  limits: WorkbookLimits = WORKBOOK_LIMITS,
): Promise<XlsxWorkbook> {
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
    const inflated = { bytes: 0 };
    const find = (path: string) => files.find((f) => f.path === path);
    const entry = (path: string) => {
      const file = find(path);
      // Only sheets are streamed; every other part is parsed whole into memory.
      const held = !/^xl\/worksheets\//.test(path);
      return (
        file && { stream: () => track(guardedText(track(file.stream()), file.compressedSize, held, limits, inflated)) }
      );
    };
    // Imported at the first workbook: imported with the server, exceljs held about 10 MB of every
    // idle server's heap (bench:server).
    const ExcelJS = (await import("exceljs")).default;
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), {
      sharedStrings: "cache",
      styles: "cache",
      hyperlinks: "ignore",
      worksheets: "emit",
      entries: "ignore",
    }) as unknown as EntryParsers;
    const rels = entry("xl/_rels/workbook.xml.rels");
    const book = entry("xl/workbook.xml");
    if (!rels || !book) throw new Error("it has no workbook");
    await reader._parseRels(rels.stream());
    await reader._parseWorkbook(book.stream());
    const strings = entry("xl/sharedStrings.xml");
    if (strings) for await (const _ of reader._parseSharedStrings(strings.stream())) void _;
    const styles = entry("xl/styles.xml");
    if (styles) await reader._parseStyles(styles.stream());

    const sheets: WorkbookSheet[] = [];
    for (const { name, rId } of reader.model?.sheets ?? []) {
      const target = reader.workbookRels?.find((r) => r.Id === rId)?.Target ?? "";
      const sheetNo = /(?:^|\/)worksheets\/sheet(\d+)\.xml$/.exec(target)?.[1];
      const file = sheetNo ? entry(target.startsWith("/") ? target.slice(1) : `xl/${target}`) : undefined;
      if (!file || !sheetNo) continue;
      sheets.push({
        name,
        rows: () => {
          const [{ value }] = reader._parseWorksheet(file.stream(), sheetNo);
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

/**
 * A part's inflated bytes as text, for exceljs's XML parser, held to the limits. The decoder keeps
 * a character split between two inflated chunks whole: exceljs decodes each chunk on its own and
 * would turn both halves into U+FFFD.
 */
function guardedText(
  source: Readable,
  packedBytes: number,
  held: boolean,
  limits: WorkbookLimits,
  inflated: { bytes: number },
): Readable {
  const decoder = new StringDecoder("utf8");
  const mb = (n: number) => Math.round(n / 1_048_576);
  let partBytes = 0;
  const guard = new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _enc, done) {
      partBytes += chunk.length;
      inflated.bytes += chunk.length;
      if (inflated.bytes > limits.maxInflatedBytes)
        return done(appError("file_too_large", `The workbook expands to more than ${mb(limits.maxInflatedBytes)} MB.`));
      if (held && partBytes > limits.maxSharedStringBytes) {
        return done(
          appError(
            "file_too_large",
            `The workbook's shared strings or styles expand to more than ${mb(limits.maxSharedStringBytes)} MB.`,
          ),
        );
      }
      // The packed size comes from the archive's directory; the data read for the part can be no
      // longer, so a lie there only makes the ratio look larger.
      if (partBytes > RATIO_FLOOR_BYTES && partBytes > limits.maxCompressionRatio * Math.max(1, packedBytes)) {
        return done(
          appError(
            "file_too_large",
            `A part of the workbook expands to more than ${limits.maxCompressionRatio} times its packed size.`,
          ),
        );
      }
      done(null, decoder.write(chunk) || undefined);
    },
    flush(done) {
      const rest = decoder.end();
      done(null, rest || undefined);
    },
  });
  return pipeline(source, guard, () => undefined);
}

/** Where the archive's bytes come from: unzipper reads them by offset. */
function byteSource(input: string | Buffer, track: (s: Readable) => Readable) {
  if (typeof input === "string") {
    return {
      size: async () => (await stat(input)).size,
      stream: (offset: number, length?: number) =>
        track(createReadStream(input, { start: offset, ...(length ? { end: offset + length - 1 } : {}) })),
    };
  }
  return {
    size: async () => input.length,
    stream: (offset: number, length?: number) =>
      Readable.from([input.subarray(offset, length ? offset + length : undefined)]),
  };
}
