import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";
import { rename, rm } from "node:fs/promises";
import { createInterface } from "node:readline";

// The records of a file as read once, one JSON array a line: [line, fields]. An XLSX import's
// extraction thread writes them (sheet-rows.ts); a CSV import's first pass writes them as it
// parses, so that the second pass, and a worker that resumes the import, read them back with
// JSON.parse instead of parsing the CSV again (csv-parse was most of the import's own CPU, twice).
// A spool is whole or absent: it is written beside under another name and renamed at the end.

export const spoolPath = (file: string) => `${file}.rows`;

export async function* spooledRecords(spool: string): AsyncGenerator<{ line: number; fields: string[] }> {
  const lines = createInterface({ input: createReadStream(spool, { encoding: "utf8" }), crlfDelay: Infinity });
  for await (const text of lines) {
    const [line, fields] = JSON.parse(text) as [number, string[]];
    yield { line, fields };
  }
}

/** Writes a spool as records come; `done` makes it visible, `abandon` removes what was written. */
export class SpoolWriter {
  private readonly spool: string;
  private readonly partial: string;
  private readonly out: WriteStream;
  private chunk = "";

  constructor(spool: string) {
    this.spool = spool;
    this.partial = `${spool}.partial`;
    this.out = createWriteStream(this.partial);
  }

  async add(line: number, fields: readonly string[]): Promise<void> {
    this.chunk += `${JSON.stringify([line, fields])}\n`;
    if (this.chunk.length < CHUNK_CHARS) return;
    const full = !this.out.write(this.chunk);
    this.chunk = "";
    if (full) await once(this.out, "drain");
  }

  async done(): Promise<void> {
    this.out.end(this.chunk);
    await once(this.out, "finish");
    await rename(this.partial, this.spool);
  }

  async abandon(): Promise<void> {
    this.out.destroy();
    await rm(this.partial, { force: true });
  }
}

const CHUNK_CHARS = 1 << 16;
