import { randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "../../lib/errors.ts";
import { closeExtractPool } from "../../lib/extract/extract-pool.ts";
import { extractContent } from "../../lib/extract/index.ts";
import { openXlsx, WORKBOOK_LIMITS, type WorkbookLimits } from "../../lib/extract/xlsx-workbook.ts";
import { startImportWorker } from "../../lib/imports/worker.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { waitFor } from "../support/wait.ts";
import {
  largeWorkbook,
  manySmallSharedStringsWorkbook,
  oneHugeSharedStringWorkbook,
} from "../hardening/hostile-files.ts";
import { allRows, importFile, upload, XLSX } from "./helpers.ts";

// A workbook is held to the limits of what it really inflates to, in imports (preview and job)
// and file analysis alike: the parts together, the shared strings (held in memory), and the
// compression ratio of each part. The two zip bombs of the trust issue fail with file_too_large.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
  await startImportWorker(app.rt, { pollMs: 50 });
});
afterAll(async () => {
  await closeExtractPool();
  await app.close();
});

const BOMBS: [string, () => Buffer][] = [
  ["one 64 MB shared string", () => oneHugeSharedStringWorkbook(64)],
  ["64 MB of small shared strings", () => manySmallSharedStringsWorkbook(64)],
];

async function readAll(bytes: Buffer, limits?: WorkbookLimits): Promise<number> {
  const book = await openXlsx(bytes, limits);
  try {
    let rows = 0;
    for await (const _ of book.sheets[0].rows()) rows++;
    return rows;
  } finally {
    book.close();
  }
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e) => (isAppError(e) ? e.code : String(e)),
  );

/** A sound workbook of random short strings: about 34 bytes of shared strings XML each. */
async function stringsWorkbook(count: number): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet("S").addRows(Array.from({ length: count }, () => [randomBytes(9).toString("base64")]));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe("the zip bombs", () => {
  it.each(BOMBS)("%s: the preview is 413 file_too_large", { timeout: 60_000 }, async (_name, bomb) => {
    const { baseId } = await createBase(app, { columns: [] });
    const res = await upload(app, baseId, bomb(), { contentType: XLSX, query: "/preview" });
    expect([res.status, res.body?.error?.code], res.text).toEqual([413, "file_too_large"]);
  });

  it.each(BOMBS)(
    "%s: the import fails with file_too_large and writes nothing",
    { timeout: 60_000 },
    async (_name, bomb) => {
      const { baseId } = await createBase(app, { columns: [] });
      expect(await importFile(app, baseId, bomb(), { contentType: XLSX })).toMatchObject({
        status: "failed",
        errors: [{ code: "file_too_large" }],
      });
      expect(await allRows(app, baseId)).toEqual([]);
    },
  );

  it.each(BOMBS)("%s: file analysis refuses it with file_too_large", { timeout: 60_000 }, async (_name, bomb) => {
    expect(await codeOf(extractContent({ bytes: bomb(), contentType: XLSX }))).toBe("file_too_large");
  });
});

describe("each limit, on what the archive inflates to", () => {
  it("the compression ratio of a part", async () => {
    // Both bombs declare a 4 KB part: only counting the inflated bytes finds them.
    expect(await codeOf(readAll(oneHugeSharedStringWorkbook(4)))).toBe("file_too_large");
    const loose = { ...WORKBOOK_LIMITS, maxCompressionRatio: 10_000 };
    expect(await readAll(oneHugeSharedStringWorkbook(4), loose)).toBe(1);
  });

  it("the shared strings' total", async () => {
    const book = await stringsWorkbook(40_000); // about 1.3 MB of shared strings XML
    expect(await readAll(book)).toBe(40_000);
    expect(await codeOf(readAll(book, { ...WORKBOOK_LIMITS, maxSharedStringBytes: 1024 * 1024 }))).toBe(
      "file_too_large",
    );
  });

  it("any other part held in memory: the styles, the workbook, its relationships", async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet("S").addRows([
      [1, 2],
      [3, 4],
    ]);
    const numbers = Buffer.from(await wb.xlsx.writeBuffer()); // no shared strings; styles of about 1.5 KB
    expect(await readAll(numbers)).toBe(2);
    expect(await codeOf(readAll(numbers, { ...WORKBOOK_LIMITS, maxSharedStringBytes: 1024 }))).toBe("file_too_large");
  });

  it("all the parts together", async () => {
    const book = largeWorkbook(1); // about 3 MB of sheet XML
    expect(await readAll(book)).toBeGreaterThan(1_000);
    expect(await codeOf(readAll(book, { ...WORKBOOK_LIMITS, maxInflatedBytes: 2 * 1024 * 1024 }))).toBe(
      "file_too_large",
    );
  });

  it("a workbook within them imports whole", { timeout: 60_000 }, async () => {
    const { baseId } = await createBase(app, { columns: [] });
    const done = await importFile(app, baseId, await stringsWorkbook(3_000), {
      contentType: XLSX,
      query: "?header=false",
    });
    expect(done).toMatchObject({ status: "done", rowsCreated: 3_000 });
    // The rows the extraction thread wrote out go with the stored file.
    const files = path.join(app.rt.config.dataDir, "files");
    await waitFor(async () => (await readdir(files)).every((f) => !f.endsWith(".rows")), "the rows file to be removed");
  });
});
