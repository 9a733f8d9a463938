import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { startImportWorker } from "../../lib/imports/worker.ts";
import { download } from "../export/helpers.ts";
import { CSV, importFile, NDJSON, XLSX } from "./helpers.ts";

// Export, then import into an empty base: the same values come back, in every format. The values
// are chosen to be hard: quotes, commas, line breaks, accents, a leading "=", typed columns.

let app: TestApp;
let source: Awaited<ReturnType<typeof createBase>>;

const COLUMNS = [
  { name: "Company", isPrimary: true },
  { name: "Employees", type: "number" },
  { name: "Founded", type: "date" },
  { name: "Public", type: "checkbox" },
  { name: "Stage", type: "select", columnOptions: { options: ["Seed", "Series A", "Series B"] } },
  { name: "Email", type: "email" },
  { name: "Site", type: "url" },
  { name: "Notes", type: "long-text" },
];

const ROWS = [
  {
    Company: "Acme, Inc.",
    Employees: "1200",
    Founded: "1999-03-01",
    Public: "true",
    Stage: "Series B",
    Email: "ops@acme.test",
    Site: "https://acme.test/",
    Notes: 'Said "hi"\non two lines',
  },
  {
    Company: "École Zürich",
    Employees: "12.5",
    Founded: "2021-11-30",
    Public: "false",
    Stage: "Seed",
    Email: "",
    Site: "",
    Notes: "=SUM(A1:A2) is text here",
  },
  { Company: "Globex", Employees: "", Founded: "", Public: "", Stage: "", Email: "", Site: "", Notes: "" },
];

beforeAll(async () => {
  app = await createTestApp();
  await startImportWorker(app.rt, { pollMs: 50 });
  source = await createBase(app, { columns: COLUMNS });
  const res = await app.api("POST", `/api/v1/bases/${source.baseId}/add-rows`, {
    body: { rows: ROWS.map((cells) => ({ cells })) },
  });
  expect(res.status, res.text).toBe(200);
});
afterAll(() => app.close());

async function valuesOf(baseId: string) {
  const rows = (await app.api("GET", `/api/v1/bases/${baseId}/rows?limit=100`)).body.rows as {
    cells: Record<string, string>;
  }[];
  return rows.map((r) => Object.fromEntries(COLUMNS.map((c) => [c.name, r.cells[c.name] ?? ""])));
}

describe("export, then import into an empty base", () => {
  const formats = [
    { format: "csv", query: "format=csv&raw=true", type: CSV },
    { format: "jsonl", query: "format=jsonl", type: NDJSON },
    { format: "xlsx", query: "format=xlsx&raw=true", type: XLSX },
  ];
  for (const f of formats) {
    it(`gives the same values (${f.format})`, async () => {
      const file = await download(app, source.baseId, f.query);
      expect(file.status).toBe(200);
      const target = await createBase(app, { columns: COLUMNS });
      const result = await importFile(app, target.baseId, file.bytes, { contentType: f.type });
      expect(result.errors).toEqual([]);
      expect(result).toMatchObject({ status: "done", rowsCreated: ROWS.length, createdColumns: [] });
      expect(await valuesOf(target.baseId)).toEqual(await valuesOf(source.baseId));
    });
  }

  it("keeps the formula guard's prefix when the guard is on (the file is for a spreadsheet, not for a round trip)", async () => {
    const file = await download(app, source.baseId, "format=csv");
    expect(file.bytes.toString()).toContain("'=SUM(A1:A2) is text here");
  });
});
