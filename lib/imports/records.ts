import { createReadStream, existsSync } from "node:fs";
import { Transform, type Readable } from "node:stream";
import { createInterface } from "node:readline";
import { parse as csvParse } from "csv-parse";
import { ParseFailure } from "./parse-failure.ts";
import { sheetRows } from "./sheet-rows.ts";
import { spooledRecords, spoolPath } from "./spool.ts";

// The three formats as one stream of records, read with maintained parsers (csv-parse, and
// exceljs's sheet parser in an extraction thread: sheet-rows.ts) and never held whole. A record
// is a line of the file: its fields in order (CSV, TSV, XLSX), or an object (JSON Lines).
// `line` is where it starts in the file, 1-based, for errors. A CSV file whose first pass spooled
// its records (spool.ts) is read from the spool, which holds the very records csv-parse gave.

export type ImportFormat = "csv" | "xlsx" | "jsonl";

export type FileRecord = { line: number; fields: string[] } | { line: number; object: Record<string, string> };

export { ParseFailure };

export interface ReadOptions {
  /** XLSX: the worksheet by name; the first one otherwise. */
  sheet?: string;
}

export function readRecords(path: string, format: ImportFormat, opts: ReadOptions = {}): AsyncGenerator<FileRecord> {
  if (format === "xlsx") return sheetRows(path, opts.sheet);
  if (format === "jsonl") return jsonlRecords(path);
  return existsSync(spoolPath(path)) ? spooledRecords(spoolPath(path)) : csvRecords(path);
}

/** Sniffs the encoding from the BOM (UTF-16 needs one; UTF-8 may have one) and decodes strictly. */
async function decodedStream(path: string): Promise<Readable> {
  const head = await firstBytes(path, 4);
  let encoding = "utf-8";
  let skip = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) skip = 3;
  else if (head[0] === 0xff && head[1] === 0xfe) [encoding, skip] = ["utf-16le", 2];
  else if (head[0] === 0xfe && head[1] === 0xff) [encoding, skip] = ["utf-16be", 2];
  const decoder = new TextDecoder(encoding, { fatal: true });
  let line = 1;
  const decode = new Transform({
    readableObjectMode: false,
    transform(chunk: Buffer, _enc, done) {
      try {
        const text = decoder.decode(chunk, { stream: true });
        done(null, text);
        for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) line++;
      } catch {
        done(
          new ParseFailure(
            line,
            `The file is not valid ${encoding.toUpperCase()} text (near line ${line}); save it as UTF-8.`,
          ),
        );
      }
    },
    flush(done) {
      try {
        done(null, decoder.decode());
      } catch {
        done(new ParseFailure(line, `The file ends in the middle of a ${encoding.toUpperCase()} character.`));
      }
    },
  });
  return createReadStream(path, { start: skip }).pipe(decode);
}

async function firstBytes(path: string, n: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of createReadStream(path, { start: 0, end: n - 1 })) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The delimiter of the first line: comma, tab or semicolon, whichever appears most outside quotes. */
async function sniffDelimiter(path: string): Promise<string> {
  const stream = await decodedStream(path);
  let head = "";
  for await (const chunk of stream) {
    head += chunk;
    if (head.length > 64 * 1024 || head.includes("\n")) break;
  }
  stream.destroy();
  const first = head.split("\n")[0].replace(/"(?:[^"]|"")*"/g, "");
  const counts = [",", "\t", ";"].map((d) => [d, first.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0][1] > 0 ? counts[0][0] : ",";
}

async function* csvRecords(path: string): AsyncGenerator<FileRecord> {
  const delimiter = await sniffDelimiter(path);
  const parser = csvParse({ delimiter, relax_column_count: true, skip_empty_lines: true, info: true });
  const input = await decodedStream(path);
  input.on("error", (e) => parser.destroy(e));
  input.pipe(parser);
  let lastLine = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      // info.lines is where the record ends; it starts after the previous one (blank lines aside).
      const line = lastLine + 1;
      lastLine = info.lines;
      if (record.length === 1 && record[0] === "") continue;
      yield { line, fields: record };
    }
  } catch (e) {
    if (e instanceof ParseFailure) throw e;
    const err = e as { lines?: number; message?: string; code?: string };
    throw new ParseFailure(err.lines ?? lastLine + 1, csvMessage(err));
  }
}

function csvMessage(err: { code?: string; message?: string }): string {
  if (err.code === "CSV_QUOTE_NOT_CLOSED") return "A quoted field is never closed.";
  if (err.code === "CSV_INVALID_CLOSING_QUOTE") return "A quote inside a quoted field is not doubled.";
  return (err.message ?? "The file is not valid CSV.").replace(/^Invalid Record Length: /, "");
}

async function* jsonlRecords(path: string): AsyncGenerator<FileRecord> {
  const lines = createInterface({ input: await decodedStream(path), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ParseFailure(line, "The line is not valid JSON.");
    }
    if (value === null || typeof value !== "object" || Array.isArray(value))
      throw new ParseFailure(line, "Each line must be a JSON object.");
    // No prototype: a field may be named "__proto__" or "constructor", and a record without it reads "".
    const object: Record<string, string> = Object.create(null);
    for (const [k, v] of Object.entries(value)) object[k] = jsonText(v);
    yield { line, object };
  }
}

const jsonText = (v: unknown): string =>
  v === null || v === undefined
    ? ""
    : typeof v === "string"
      ? v
      : typeof v === "object"
        ? JSON.stringify(v)
        : String(v);
