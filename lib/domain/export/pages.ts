import { once } from "node:events";
import type { Duplex } from "node:stream";
import { parsed } from "../../db/json.ts";
import { statesOf } from "../rows/index.ts";
import type { RowValues } from "../rows/index.ts";
import type { PreparedRowsQuery } from "../rows/index.ts";
import type { Cursor } from "../query/index.ts";
import type { ExportRow } from "./columns.ts";

/** Rows per keyset page at most: large enough that a round trip is a small share. */
export const EXPORT_PAGE_ROWS = 2_000;
/** Characters of values a page aims at, so that long texts make shorter pages and memory stays flat. */
const PAGE_CHARS = 4_000_000;
const FIRST_PAGE_ROWS = 200;

/**
 * Every row the query matches, a keyset page at a time; the next page is read only when asked for.
 * Each page is sized from the last one's characters per row.
 */
export async function* exportPages(
  query: PreparedRowsQuery,
  withStates: boolean,
  maxPageRows = EXPORT_PAGE_ROWS,
): AsyncGenerator<ExportRow[]> {
  let cursor: Cursor | null = null;
  let pageRows = Math.min(FIRST_PAGE_ROWS, maxPageRows);
  do {
    const page = await query.page(cursor, pageRows, withStates);
    cursor = page.next;
    if (page.rows.length > 0) {
      const rows = page.rows.map((r) => ({
        id: r.id,
        values: (parsed<RowValues | null>(r.values) ?? {}) as RowValues,
        ...(withStates ? { states: statesOf(r.cells) } : {}),
      }));
      const chars = rows.reduce((n, r) => n + valueChars(r.values), 0);
      pageRows = nextPageRows(PAGE_CHARS, maxPageRows, rows.length, chars);
      yield rows;
    }
  } while (cursor);
}

/** The rows of the next page: as many as `aimChars` at the last page's characters per row. */
const nextPageRows = (aimChars: number, maxPageRows: number, rows: number, chars: number) =>
  Math.max(1, Math.min(maxPageRows, Math.floor((aimChars * rows) / Math.max(1, chars))));

function valueChars(values: RowValues): number {
  let n = 0;
  for (const v of Object.values(values)) n += typeof v === "string" ? v.length : 8;
  return n;
}

/**
 * Writes records into a transform (a CSV writer) while its output is read, honouring its
 * back-pressure, and yields the output in chunks of about `chunkBytes`. When the reader stops
 * early the transform is destroyed and the writing stops with it.
 */
export async function* pumpThrough<T>(
  transform: Duplex,
  records: AsyncIterable<T[]>,
  chunkBytes = 64 * 1024,
): AsyncGenerator<string | Uint8Array> {
  const stop = new AbortController();
  const feeding = (async () => {
    try {
      for await (const page of records) {
        for (const record of page) {
          if (!transform.write(record)) await once(transform, "drain", { signal: stop.signal });
        }
      }
      transform.end();
    } catch (e) {
      transform.destroy(e as Error);
    }
  })();
  try {
    yield* coalesce(transform, chunkBytes);
    await feeding;
  } finally {
    stop.abort();
    transform.destroy();
  }
}

/** Joins many small chunks (a CSV writer emits one per record) into fewer large ones. */
export async function* coalesce(
  chunks: AsyncIterable<string | Uint8Array>,
  chunkBytes: number,
): AsyncGenerator<string | Uint8Array> {
  let parts: (string | Uint8Array)[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    parts.push(chunk);
    size += chunk.length;
    if (size >= chunkBytes) {
      yield join(parts);
      parts = [];
      size = 0;
    }
  }
  if (size > 0) yield join(parts);
}

const join = (parts: (string | Uint8Array)[]) =>
  parts.every((p) => typeof p === "string")
    ? parts.join("")
    : Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : p)));

/** Characters of formatted records a page aims at, so that long texts make shorter pages. */
const LINE_PAGE_CHARS = 8_000_000;
/** Larger pages than the value path: a page of records costs the client one string, not a parse per row. */
const MAX_LINE_PAGE_ROWS = EXPORT_PAGE_ROWS * 5;

/**
 * Every row the query matches as a record the database formats (`line`, an SQL expression over
 * `r`), a page of records at a time, each page one text with `separator` after every record.
 */
export async function* linePages(
  query: PreparedRowsQuery,
  line: string,
  separator: string,
  maxPageRows = MAX_LINE_PAGE_ROWS,
): AsyncGenerator<string> {
  let cursor: Cursor | null = null;
  let pageRows = Math.min(FIRST_PAGE_ROWS, maxPageRows);
  do {
    const page = await query.linesPage(cursor, pageRows, line, separator);
    cursor = page.next;
    if (page.rows === 0) break;
    pageRows = nextPageRows(LINE_PAGE_CHARS, maxPageRows, page.rows, page.text.length);
    yield page.text + separator;
  } while (cursor);
}
