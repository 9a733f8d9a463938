import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { startImportWorker } from "../../lib/imports/worker.ts";
import { allRows, columnsOf, importFile, upload, XLSX } from "./helpers.ts";

// What an import does with its lines: a file that does not parse writes nothing, a value that
// cannot be cast skips its line, upsert on single and compound keys, and 4xx for bad requests.

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
  await startImportWorker(app.rt, { pollMs: 50 });
});
afterAll(() => app.close());

const leads = async () =>
  (
    await createBase(app, {
      columns: [
        { name: "Email", type: "email", isPrimary: true },
        { name: "Company", type: "short-text" },
        { name: "Country", type: "short-text" },
        { name: "Score", type: "number" },
        { name: "Since", type: "date" },
        { name: "Tier", type: "select", columnOptions: { options: ["Gold"] } },
      ],
    })
  ).baseId;

const lines = (n: number, at: (i: number) => string) => Array.from({ length: n }, (_, i) => at(i)).join("\n");

describe("parsing", () => {
  it("an unclosed quote near the end fails the import with its line, and writes nothing", async () => {
    const baseId = await leads();
    const csv = `Email,Company,NewColumn\n${lines(2_500, (i) => `u${i}@x.test,C${i},v`)}\nlast@x.test,"never closed,v\n`;
    const done = await importFile(app, baseId, csv);
    expect(done.status).toBe("failed");
    expect(done.errors).toEqual([
      { line: 2_502, column: null, code: "invalid_file", message: expect.stringContaining("quote") },
    ]);
    expect(done).toMatchObject({ rowsCreated: 0, createdColumns: [] });
    expect(await allRows(app, baseId)).toEqual([]);
    expect((await columnsOf(app, baseId)).map((c) => c.name)).not.toContain("NewColumn");
  });

  it("bad encodings, broken JSON Lines and a broken XLSX fail cleanly", async () => {
    const baseId = await leads();
    const latin1 = Buffer.concat([Buffer.from("Email,Company\na@x.test,Caf"), Buffer.from([0xe9]), Buffer.from("\n")]);
    expect(await importFile(app, baseId, latin1)).toMatchObject({
      status: "failed",
      errors: [{ code: "invalid_file" }],
    });
    const jsonl = await importFile(app, baseId, '{"Email":"a@x.test"}\n{"Email": nope}\n', {
      contentType: "application/x-ndjson",
    });
    expect(jsonl).toMatchObject({ status: "failed", errors: [{ line: 2, code: "invalid_file" }] });
    const xlsx = await importFile(app, baseId, Buffer.concat([Buffer.from("PK\u0003\u0004"), Buffer.alloc(200, 7)]), {
      contentType: XLSX,
    });
    expect(xlsx).toMatchObject({ status: "failed", errors: [{ code: "invalid_file" }] });
    expect(await allRows(app, baseId)).toEqual([]);
  });
});

describe("typecast", () => {
  it("casts spreadsheet values, creates select options, and skips lines whose values cannot be cast", async () => {
    const baseId = await leads();
    const csv = [
      "email,SCORE,Since,Tier",
      'a@x.test,"1,234.5",2024/03/05,gold',
      "b@x.test,12,31/12/2023,Silver",
      "c@x.test,lots,2024-01-01,Gold",
      "not-an-email,1,2024-01-01,Gold",
      "d@x.test,3,2024-02-30,",
    ].join("\r\n");
    const done = await importFile(app, baseId, csv);
    expect(done).toMatchObject({ status: "done", rowsRead: 5, rowsCreated: 2, rowsSkipped: 3 });
    expect(done.errors).toEqual([
      { line: 4, column: "Score", code: "invalid_value", message: expect.any(String) },
      { line: 5, column: "Email", code: "invalid_value", message: expect.any(String) },
      { line: 6, column: "Since", code: "invalid_value", message: expect.any(String) },
    ]);
    expect(await allRows(app, baseId)).toEqual([
      { Email: "a@x.test", Company: "", Country: "", Score: "1234.5", Since: "2024-03-05", Tier: "Gold" },
      { Email: "b@x.test", Company: "", Country: "", Score: "12", Since: "2023-12-31", Tier: "Silver" },
    ]);
    expect((await columnsOf(app, baseId)).find((c) => c.name === "Tier")!.columnOptions.options).toEqual([
      "Gold",
      "Silver",
    ]);
  });

  it("typecast=false takes values only as they are", async () => {
    const baseId = await leads();
    const done = await importFile(app, baseId, 'Email,Score\na@x.test,"1,5"\nb@x.test,2\n', {
      query: "?typecast=false",
    });
    expect(done).toMatchObject({ rowsCreated: 1, rowsSkipped: 1, errors: [{ line: 2, column: "Score" }] });
  });
});

describe("upsert", () => {
  it("on a single key: updates matching rows' supplied cells, and a key repeated in the file updates its earlier line's row", async () => {
    const baseId = await leads();
    await importFile(app, baseId, "Email,Company,Score\nann@x.test,Acme,1\nbob@x.test,Bolt,2\n");
    const csv = "Email,Score,Country\nANN@x.test,5,\ncid@x.test,7,FR\ncid@x.test,,DE\n,9,\n";
    const done = await importFile(app, baseId, csv, { query: "?mergeOn=email" });
    // ANN@x.test is ann@x.test (the email type lower-cases the domain only): a new row.
    expect(done).toMatchObject({ status: "done", rowsCreated: 3, rowsUpdated: 1 });
    const byEmail = await importFile(app, baseId, "Email,Score\nann@x.test,8\n", { query: "?mergeOn=Email" });
    expect(byEmail).toMatchObject({ rowsCreated: 0, rowsUpdated: 1 });
    const rows = await allRows(app, baseId);
    expect(rows.filter((r) => r.Email === "cid@x.test")).toEqual([
      expect.objectContaining({ Score: "7", Country: "DE" }),
    ]);
    expect(rows.find((r) => r.Email === "ann@x.test")).toMatchObject({ Company: "Acme", Score: "8" });
    expect(rows.filter((r) => r.Email === "")).toHaveLength(1);
  });

  it("on a compound key (Company + Country)", async () => {
    const baseId = await leads();
    await importFile(app, baseId, "Company,Country,Score\nKilo,DE,1\nKilo,FR,2\n");
    const done = await importFile(app, baseId, "Company,Country,Score\nKilo,FR,20\nKilo,IT,3\n", {
      query: "?mergeOn=Company&mergeOn=Country",
    });
    expect(done).toMatchObject({ rowsCreated: 1, rowsUpdated: 1 });
    expect((await allRows(app, baseId)).map((r) => [r.Company, r.Country, r.Score])).toEqual([
      ["Kilo", "DE", "1"],
      ["Kilo", "FR", "20"],
      ["Kilo", "IT", "3"],
    ]);
  });

  it("a merge column that is neither a column nor a header fails the import, writing nothing", async () => {
    const baseId = await leads();
    const done = await importFile(app, baseId, "Email,Fresh\na@x.test,1\n", { query: "?mergeOn=Nope" });
    expect(done).toMatchObject({ status: "failed", errors: [{ code: "unknown_column" }] });
    expect((await columnsOf(app, baseId)).map((c) => c.name)).not.toContain("Fresh");
  });
});

describe("requests", () => {
  it("answers 4xx for bad input and lists imports newest first", async () => {
    const baseId = await leads();
    expect((await upload(app, baseId, "")).body.error.code).toBe("empty_file");
    expect((await upload(app, baseId, "%PDF-1.4 \u0000", { contentType: "application/pdf" })).status).toBe(415);
    expect((await upload(app, baseId, "a\n1\n", { query: "?runAi=maybe" })).body.error.code).toBe("invalid_query");
    expect((await upload(app, baseId, "a\n1\n", { query: "?format=pdf" })).status).toBe(400);
    const first = await importFile(app, baseId, "Email\na@x.test\n");
    const second = await importFile(app, baseId, "Email\nb@x.test\n");
    const list = await app.api("GET", `/api/v1/bases/${baseId}/imports`);
    expect(list.body.imports.map((i: { id: string }) => i.id)).toEqual([second.id, first.id]);
    expect((await app.api("GET", `/api/v1/bases/${baseId}/imports/imp_nope`)).body.error.code).toBe("import_not_found");
  });

  it("another workspace's key gets 404 for the base and its imports", async () => {
    const baseId = await leads();
    const mine = await importFile(app, baseId, "Email\na@x.test\n");
    expect((await upload(app, baseId, "Email\nb@x.test\n", { key: app.keyB })).status).toBe(404);
    expect((await app.api("GET", `/api/v1/bases/${baseId}/imports/${mine.id}`, { key: app.keyB })).status).toBe(404);
    expect((await app.api("GET", `/api/v1/bases/${baseId}/imports`, { key: app.keyB })).status).toBe(404);
    expect(await allRows(app, baseId)).toHaveLength(1);
  });
});

describe("the size limit", () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({ IMPORT_MAX_BYTES: "1000" });
  });
  afterAll(() => small.close());

  it("answers 413 at once for a file over IMPORT_MAX_BYTES, as the body or as a multipart field, and keeps nothing", async () => {
    const { baseId } = await createBase(small, { columns: [{ name: "Name" }] });
    const big = `Name\n${lines(400, (i) => `name ${i}`)}\n`;
    for (const multipart of [undefined, { name: "big.csv" }]) {
      const res = await upload(small, baseId, big, { multipart });
      expect(res.status, res.text).toBe(413);
      expect(res.body.error.code).toBe("file_too_large");
    }
    expect((await small.api("GET", `/api/v1/bases/${baseId}/imports`)).body.imports).toEqual([]);
  });
});
