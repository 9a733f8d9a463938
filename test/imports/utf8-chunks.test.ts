import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import fc from "fast-check";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeExtractPool } from "../../lib/extract/extract-pool.ts";
import { extractContent } from "../../lib/extract/index.ts";
import { DEFAULT_EXTRACT_LIMITS } from "../../lib/extract/types.ts";
import { readRecords, type FileRecord, type ImportFormat } from "../../lib/imports/records.ts";
import { safeFetch } from "../../lib/net/index.ts";

// Text arrives in chunks: a file read 64 KiB at a time, a workbook part inflated 16 KiB at a
// time, a page as the server writes it. A character whose bytes straddle two chunks must come out
// whole. Each reader gets text of 4-byte emoji, ZWJ sequences, combining marks and CJK, padded so
// that a chunk boundary falls at every byte offset inside it, and must give back the same bytes.

const PIECES = ["😀", "👍🏽", "👨‍👩‍👧‍👦", "🇫🇷", "e\u0301", "n\u0303a", "李小龙", " 181", "𝄞", "Ω", "ü"];
const SAMPLE = "emoji 😀👍🏽 李小龙 181 👨‍👩‍👧‍👦 e\u0301𝄞";
const FILE_CHUNK = 64 * 1024; // fs.createReadStream's default
const INFLATE_CHUNK = 16 * 1024; // zlib's default output chunk
const bytes = (s: string) => Buffer.byteLength(s);
const splits = (s: string) => Array.from({ length: bytes(s) - 1 }, (_, i) => i + 1);

let dir: string;
let fileNo = 0;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "utf8-chunks-"));
});
afterAll(async () => {
  await closeExtractPool();
  await rm(dir, { recursive: true, force: true });
});

async function records(content: Buffer, format: ImportFormat): Promise<FileRecord[]> {
  const file = path.join(dir, `f${fileNo++}.${format}`);
  await writeFile(file, content);
  const out: FileRecord[] = [];
  for await (const r of readRecords(file, format)) out.push(r);
  await rm(file);
  return out;
}

/** `text` as the second field of a CSV's second line, its byte `split` at a read boundary. */
async function csvRoundTrip(text: string, split: number): Promise<string> {
  const pad = FILE_CHUNK - split - bytes("a,b\n") - 1;
  const [, row] = await records(Buffer.from(`a,b\n${"x".repeat(pad)},${text}\n`), "csv");
  return (row as { fields: string[] }).fields[1];
}

async function jsonlRoundTrip(text: string, split: number): Promise<string> {
  const before = `{"p":"`;
  const pad = FILE_CHUNK - split - bytes(before) - bytes(`","t":"`);
  const [row] = await records(Buffer.from(`${before}${"x".repeat(pad)}","t":${JSON.stringify(text)}}\n`), "jsonl");
  return (row as { object: Record<string, string> }).object.t;
}

/**
 * A workbook built by exceljs holding `text` twice: as a shared string (sharedStrings.xml) and as
 * a formula's cached result (the sheet's XML), each padded so that byte `split` of it falls on an
 * inflated chunk's boundary.
 */
async function workbookWith(text: string, split: number): Promise<Buffer> {
  const build = async (sharedPad: number, sheetPad: number) => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("S");
    ws.addRow(["x".repeat(sharedPad), MARK]);
    ws.addRow([
      { formula: "A1", result: "y".repeat(sheetPad) },
      { formula: "B1", result: MARK },
    ]);
    // exceljs's zip writer encodes text 16K characters at a time and so splits a surrogate pair
    // that straddles two of them: the writer's own bug, not the reader's. It writes a marker, and
    // the text goes in here as bytes.
    const zip = await JSZip.loadAsync(Buffer.from(await wb.xlsx.writeBuffer()));
    for (const part of [SHARED, SHEET])
      zip.file(part, Buffer.from((await zip.file(part)!.async("string")).replace(MARK, text)));
    return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
  };
  const offsetIn = async (book: Buffer, part: string) =>
    Buffer.from(await (await JSZip.loadAsync(book)).file(part)!.async("uint8array")).indexOf(Buffer.from(text));
  // Each pad byte moves the text one byte on, so one build tells where the text starts.
  const probe = await build(1, 1);
  const aligned = (offset: number) => 1 + INFLATE_CHUNK * Math.ceil((offset + split) / INFLATE_CHUNK) - offset - split;
  const book = await build(aligned(await offsetIn(probe, SHARED)), aligned(await offsetIn(probe, SHEET)));
  for (const part of [SHARED, SHEET]) expect(((await offsetIn(book, part)) + split) % INFLATE_CHUNK).toBe(0);
  return book;
}

const MARK = "@@TEXT@@";
const SHARED = "xl/sharedStrings.xml";
const SHEET = "xl/worksheets/sheet1.xml";

async function xlsxRoundTrip(text: string, split: number): Promise<string[]> {
  const rows = await records(await workbookWith(text, split), "xlsx");
  return [(rows[0] as { fields: string[] }).fields[1], (rows[1] as { fields: string[] }).fields[1]];
}

const sameBytes = (got: string | undefined, want: string) =>
  expect(Buffer.from(got ?? "").equals(Buffer.from(want)), `${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`).toBe(
    true,
  );

describe("imports decode UTF-8 across chunk boundaries", () => {
  it("CSV, at every split of the sample", async () => {
    for (const split of splits(SAMPLE)) sameBytes(await csvRoundTrip(SAMPLE, split), SAMPLE);
  });

  it("JSON Lines, at every split of the sample", async () => {
    for (const split of splits(SAMPLE)) sameBytes(await jsonlRoundTrip(SAMPLE, split), SAMPLE);
  });

  it("XLSX shared strings and sheet XML, at every split of the sample", { timeout: 120_000 }, async () => {
    for (const split of splits(SAMPLE)) {
      const [shared, inSheet] = await xlsxRoundTrip(SAMPLE, split);
      sameBytes(shared, SAMPLE);
      sameBytes(inSheet, SAMPLE);
    }
  });

  it("any text of such characters, split anywhere, in each format", { timeout: 180_000 }, async () => {
    const textAndSplit = fc
      .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 })
      .map((parts) => parts.join(""))
      .chain((text) => fc.tuple(fc.constant(text), fc.integer({ min: 1, max: Math.max(1, bytes(text) - 1) })));
    await fc.assert(
      fc.asyncProperty(textAndSplit, async ([text, split]) => {
        sameBytes(await csvRoundTrip(text, split), text);
        sameBytes(await jsonlRoundTrip(text, split), text);
        for (const got of await xlsxRoundTrip(text, split)) sameBytes(got, text);
      }),
      { numRuns: 40 },
    );
  });
});

describe("file analysis and fetched pages decode UTF-8 across chunk boundaries", () => {
  it("a workbook's text, at every split of the sample", { timeout: 120_000 }, async () => {
    for (const split of splits(SAMPLE)) {
      const content = await extractContent({
        bytes: await workbookWith(SAMPLE, split),
        contentType: "",
        name: "s.xlsx",
      });
      // Two rows, each a pad and then the text: one from the shared strings, one from the sheet.
      const rows = content.text.split("\n").filter((l) => /^[xy]/.test(l));
      expect(rows).toHaveLength(2);
      for (const row of rows) sameBytes(row.slice(row.indexOf(",") + 1), SAMPLE);
    }
  });

  describe("a page written in two pieces", () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      // GET /<split>?text=…: the text's bytes, written as two pieces split at <split>.
      server = createServer(async (req, res) => {
        const u = new URL(req.url!, "http://x");
        const body = Buffer.from(u.searchParams.get("text")!);
        const split = Number(u.pathname.slice(1));
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
        res.write(body.subarray(0, split));
        await new Promise((r) => setTimeout(r, 5));
        res.end(body.subarray(split));
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    const fetched = async (text: string, split: number) => {
      const res = await safeFetch(`${url}/${split}?text=${encodeURIComponent(text)}`, {
        maxBytes: 1 << 20,
        timeoutMs: 10_000,
        connectTimeoutMs: 2_000,
        allowedPrivateHosts: ["127.0.0.1"],
      });
      const content = await extractContent(
        { bytes: res.body, contentType: res.contentType, charset: res.charset },
        DEFAULT_EXTRACT_LIMITS,
      );
      return content.text;
    };

    it("cut at the size limit inside a character, keeps the whole characters before it", async () => {
      for (const split of splits(SAMPLE)) {
        const res = await safeFetch(`${url}/1?text=${encodeURIComponent(SAMPLE)}`, {
          maxBytes: split,
          truncate: true,
          timeoutMs: 10_000,
          connectTimeoutMs: 2_000,
          allowedPrivateHosts: ["127.0.0.1"],
        });
        const text = res.body.toString("utf8");
        expect(res.truncated).toBe(true);
        expect(text.includes("\uFFFD"), JSON.stringify(text)).toBe(false);
        expect(SAMPLE.startsWith(text)).toBe(true);
        // Only the cut character is dropped: a UTF-8 character is at most four bytes.
        expect(Buffer.byteLength(text)).toBeGreaterThan(split - 4);
      }
    });

    it("at every split of the sample, and for any such text split anywhere", { timeout: 120_000 }, async () => {
      for (const split of splits(SAMPLE)) sameBytes(await fetched(SAMPLE, split), SAMPLE);
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 }),
          fc.nat(),
          async (parts, n) => {
            const text = `a${parts.join("")}`;
            sameBytes(await fetched(text, 1 + (n % bytes(text))), text);
          },
        ),
        { numRuns: 30 },
      );
    });
  });
});
