import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openXlsx } from "../../lib/extract/xlsx-workbook.ts";
import { excelCellText } from "../../lib/extract/xlsx.ts";

// A workbook read through the zip's central directory: sheets by tab name, in tab order, with
// shared strings and date styles resolved, and no file handle left open.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "xlsx-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function workbook(sheets: { name: string; rows: unknown[][] }[], created?: Date): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  if (created) wb.created = wb.modified = created;
  for (const s of sheets) wb.addWorksheet(s.name).addRows(s.rows);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function valuesOf(rows: AsyncIterable<ExcelJS.Row>): Promise<string[][]> {
  const out: string[][] = [];
  for await (const row of rows) out.push(Array.from((row.values as unknown[]).slice(1), excelCellText));
  return out;
}

const openFds = () => readdirSync("/proc/self/fd").length;

describe("openXlsx", () => {
  const SHEETS = [
    { name: "Notes", rows: [["Ignore"], ["me"]] },
    {
      name: "Leads",
      rows: [
        ["Name", "Seen", "Ok"],
        ["Ann", new Date(Date.UTC(2024, 0, 2)), true],
      ],
    },
  ];

  it("lists the sheets in tab order and reads any of them, from a file or from bytes", async () => {
    const bytes = await workbook(SHEETS);
    const file = path.join(dir, "two.xlsx");
    await writeFile(file, bytes);
    for (const input of [file, bytes]) {
      const book = await openXlsx(input);
      expect(book.sheets.map((s) => s.name)).toEqual(["Notes", "Leads"]);
      expect(await valuesOf(book.sheets[1].rows())).toEqual([
        ["Name", "Seen", "Ok"],
        ["Ann", "2024-01-02", "true"],
      ]);
      expect(await valuesOf(book.sheets[0].rows())).toEqual([["Ignore"], ["me"]]);
      book.close();
    }
  });

  it("reads every workbook whole, where a front-to-back pass now and then lost the workbook entry", async () => {
    const file = path.join(dir, "many.xlsx");
    for (let i = 0; i < 300; i++) {
      // Each archive differs in its dates, so each is a different file to unzip.
      await writeFile(file, await workbook(SHEETS, new Date(Date.UTC(2020, 0, 1) + i * 3_607_000)));
      const book = await openXlsx(file);
      expect(book.sheets.map((s) => s.name)).toEqual(["Notes", "Leads"]);
      expect(await valuesOf(book.sheets[0].rows())).toEqual([["Ignore"], ["me"]]);
      book.close();
    }
  });

  it("closes the file when a sheet is left half read", async () => {
    // Past a megabyte compressed: more than the zip reader buffers, so the file stays open.
    const rows = Array.from({ length: 60_000 }, (_, i) => [randomBytes(24).toString("base64"), i]);
    const file = path.join(dir, "long.xlsx");
    await writeFile(file, await workbook([{ name: "Long", rows }]));
    const before = openFds();
    for (let i = 0; i < 20; i++) {
      const book = await openXlsx(file);
      const it = book.sheets[0].rows()[Symbol.asyncIterator]();
      expect((await it.next()).value.number).toBe(1);
      book.close();
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(openFds()).toBeLessThanOrEqual(before + 1);
  });

  it("refuses a file that is not a workbook", async () => {
    const file = path.join(dir, "not.xlsx");
    await writeFile(file, "Name,City\nAnn,Oslo\n");
    await expect(openXlsx(file)).rejects.toThrow();
    await expect(openXlsx(Buffer.from("PK\u0003\u0004 truncated"))).rejects.toThrow();
  });
});
