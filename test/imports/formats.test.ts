import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { startImportWorker } from "../../lib/imports/worker.ts";
import { allRows, columnsOf, importFile, NDJSON, XLSX, xlsxOf } from "./helpers.ts";

// Every format, and the encodings and quoting of real files: BOMs, UTF-16, CRLF, quoted fields
// with commas, quotes and newlines; TSV and ;-separated detected.

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
  await startImportWorker(app.rt, { pollMs: 50 });
});
afterAll(() => app.close());

const emptyBase = async () => (await createBase(app, { columns: [] })).baseId;

describe("import formats", () => {
  it("CSV into an empty base: the first column becomes primary, types are inferred", async () => {
    const baseId = await emptyBase();
    const csv =
      "Name,Employees,Founded,Active,Site,Contact,Zip\nAcme,1200,2001-03-04,yes,https://acme.test,ann@acme.test,02139\nBolt,35,2010-12-01,no,https://bolt.test,bob@bolt.test,10001\n";
    const done = await importFile(app, baseId, csv);
    expect(done).toMatchObject({
      status: "done",
      format: "csv",
      rowsRead: 2,
      rowsCreated: 2,
      rowsSkipped: 0,
      errors: [],
    });
    expect(done.createdColumns).toEqual(["Name", "Employees", "Founded", "Active", "Site", "Contact", "Zip"]);
    const cols = await columnsOf(app, baseId);
    expect(cols.map((c) => [c.name, c.type, c.isPrimary])).toEqual([
      ["Name", "short-text", true],
      ["Employees", "number", false],
      ["Founded", "date", false],
      ["Active", "checkbox", false],
      ["Site", "url", false],
      ["Contact", "email", false],
      // Leading zeros keep a column text: a zip code is not a number.
      ["Zip", "short-text", false],
    ]);
    const rows = await allRows(app, baseId);
    expect(rows[0]).toMatchObject({
      Name: "Acme",
      Employees: "1200",
      Founded: "2001-03-04",
      Active: "true",
      Zip: "02139",
    });
    expect(rows[1]).toMatchObject({ Name: "Bolt", Active: "false" });
  });

  it("quoted fields hold commas, doubled quotes and newlines; CRLF and a UTF-8 BOM", async () => {
    const baseId = await emptyBase();
    const csv = '\uFEFFName,Note\r\n"Acme, Inc.","He said ""hi""\r\nthen left"\r\nÉcole,"ü, ß"\r\n';
    const done = await importFile(app, baseId, csv);
    expect(done).toMatchObject({ status: "done", rowsCreated: 2 });
    expect(done.createdColumns).toEqual(["Name", "Note"]);
    expect(await allRows(app, baseId)).toEqual([
      { Name: "Acme, Inc.", Note: 'He said "hi"\r\nthen left' },
      { Name: "École", Note: "ü, ß" },
    ]);
  });

  it("UTF-16 with a BOM (little and big endian)", async () => {
    for (const [bom, encode] of [
      [Buffer.from([0xff, 0xfe]), (s: string) => Buffer.from(s, "utf16le")],
      [Buffer.from([0xfe, 0xff]), (s: string) => Buffer.from(s, "utf16le").swap16()],
    ] as const) {
      const baseId = await emptyBase();
      const done = await importFile(app, baseId, Buffer.concat([bom, encode("Name\tCity\r\nZoë\tKöln\r\n")]), {
        contentType: "text/tab-separated-values",
      });
      expect(done, JSON.stringify(done.errors)).toMatchObject({ status: "done", rowsCreated: 1 });
      expect(await allRows(app, baseId)).toEqual([{ Name: "Zoë", City: "Köln" }]);
    }
  });

  it("detects TSV and ;-separated files", async () => {
    const tsv = await emptyBase();
    await importFile(app, tsv, "A\tB\n1,5\tx;y\n", { contentType: "text/plain" });
    // "1,5" settles the file's decimal comma: A is a number column.
    expect(await allRows(app, tsv)).toEqual([{ A: "1.5", B: "x;y" }]);
    const semi = await emptyBase();
    await importFile(app, semi, "Name;Amount\nAcme;1.234,5\nBolt;2,25\n");
    const rows = await allRows(app, semi);
    expect(rows).toEqual([
      { Name: "Acme", Amount: "1234.5" },
      { Name: "Bolt", Amount: "2.25" },
    ]);
  });

  it("XLSX: the first sheet, or the one named by sheet=; typed cells", async () => {
    const file = await xlsxOf([
      { name: "Notes", rows: [["Ignore"], ["me"]] },
      {
        name: "Leads",
        rows: [
          ["Name", "Score", "Seen", "Ok"],
          ["Ann", 3.5, new Date(Date.UTC(2024, 0, 2)), true],
          ["Bob", 4, null, false],
        ],
      },
    ]);
    const first = await emptyBase();
    await importFile(app, first, file, { contentType: XLSX });
    expect(await allRows(app, first)).toEqual([{ Ignore: "me" }]);
    const named = await emptyBase();
    const done = await importFile(app, named, file, { contentType: XLSX, query: "?sheet=leads" });
    expect(done).toMatchObject({ status: "done", format: "xlsx", rowsCreated: 2 });
    expect((await columnsOf(app, named)).map((c) => c.type)).toEqual(["short-text", "number", "date", "checkbox"]);
    expect(await allRows(app, named)).toEqual([
      { Name: "Ann", Score: "3.5", Seen: "2024-01-02", Ok: "true" },
      { Name: "Bob", Score: "4", Seen: "", Ok: "false" },
    ]);
  });

  it("JSON Lines: keys become columns in order of appearance", async () => {
    const baseId = await emptyBase();
    const done = await importFile(
      app,
      baseId,
      '{"name":"Ann","age":31}\n\n{"name":"Bob","city":"Oslo","tags":["a"]}\n',
      { contentType: NDJSON },
    );
    expect(done).toMatchObject({
      status: "done",
      format: "jsonl",
      rowsCreated: 2,
      createdColumns: ["name", "age", "city", "tags"],
    });
    expect(await allRows(app, baseId)).toEqual([
      { name: "Ann", age: "31", city: "", tags: "" },
      { name: "Bob", age: "", city: "Oslo", tags: '["a"]' },
    ]);
  });

  it("JSON Lines: keys named like Object's own properties are fields like any other", async () => {
    const baseId = await emptyBase();
    const done = await importFile(app, baseId, '{"name":"Ann","__proto__":"p","constructor":"c"}\n{"name":"Bob"}\n', {
      contentType: NDJSON,
    });
    expect(done).toMatchObject({
      status: "done",
      rowsCreated: 2,
      createdColumns: ["name", "__proto__", "constructor"],
    });
    const rows = await allRows(app, baseId);
    expect(rows.map((r) => [r.name, r.__proto__, r.constructor])).toEqual([
      ["Ann", "p", "c"],
      ["Bob", "", ""],
    ]);
  });

  it("a multipart upload (field file) is recognised by its file name", async () => {
    const baseId = await emptyBase();
    const done = await importFile(app, baseId, "Name\nAnn\n", {
      contentType: "application/octet-stream",
      multipart: { name: "people.csv" },
    });
    expect(done).toMatchObject({ status: "done", fileName: "people.csv", rowsCreated: 1 });
  });

  it("header=false names the fields Column 1, Column 2; createColumns=false lists them as ignored", async () => {
    const baseId = await emptyBase();
    const done = await importFile(app, baseId, "Ann,31\nBob,40\n", { query: "?header=false" });
    expect(done.createdColumns).toEqual(["Column 1", "Column 2"]);
    const more = await importFile(app, baseId, "Column 1,Extra\nCid,zzz\n", { query: "?createColumns=false" });
    expect(more).toMatchObject({ rowsCreated: 1, ignoredColumns: ["Extra"], createdColumns: [] });
  });
});
