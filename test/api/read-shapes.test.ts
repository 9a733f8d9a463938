import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows, THREE_COMPANIES, COLUMN_KEYS, COMPANIES } from "./fixtures.ts";
import { EMITS_NOTHING, scenarios } from "./scenario.ts";

// Spec §4.1–§4.3: the read endpoints' exact shapes and the expand forms (their 404s and 405s:
// read-refusals.test.ts).

let app: TestApp;
let f: TestBase;
let rows: any[];

beforeAll(async () => {
  app = await createTestApp();
  f = await createBase(app, COMPANIES);
  rows = await addRows(app, f.baseId, THREE_COMPANIES);
});
afterAll(() => app.close());

const rowsPath = () => `/api/v1/bases/${f.baseId}/rows`;
const rowPath = (i = 0) => `/api/v1/bases/${f.baseId}/rows/${rows[i].id}`;

describe("Get Rows (§4.1)", () => {
  it("returns { rows } with every row in insertion order, cells keyed by name, string values, an entry for every column", async () => {
    const res = await app.api("GET", rowsPath());
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      rows: [
        { id: rows[0].id, cells: { Company: "Acme", Website: "https://acme.com", Employees: "42", Summary: "" } },
        { id: rows[1].id, cells: { Company: "Globex", Website: "", Employees: "", Summary: "Supplied by hand" } },
        { id: rows[2].id, cells: { Company: "Initech", Website: "", Employees: "", Summary: "" } },
      ],
    });
    for (const r of res.body.rows) {
      expect(r.id).toMatch(/^sr_[A-Za-z0-9]{16,}$/);
      for (const v of Object.values(r.cells)) expect(v).toBeTypeOf("string");
    }
  });

  it("expand=true gives { value, metadata?, status? } per cell; non-AI cells are { value } only", async () => {
    const res = await app.api("GET", `${rowsPath()}?expand=true`);
    expect(res.status).toBe(200);
    const [acme, globex] = res.body.rows;
    expect(acme.cells.Company).toEqual({ value: "Acme" });
    expect(acme.cells.Employees).toEqual({ value: "42" });
    expect(acme.cells.Summary).toEqual({
      value: "",
      status: "pending",
      metadata: { sources: null, additionalDetails: null, confidenceScore: null },
      needsReview: false,
      verified: false,
    });
    expect(globex.cells.Summary).toEqual({
      value: "Supplied by hand",
      status: "done",
      metadata: {
        sources: null,
        additionalDetails: "Supplied by the user.",
        confidenceScore: null,
        suppliedByUser: true,
      },
      needsReview: false,
      verified: false,
    });
    expect(Object.keys(acme.cells).sort()).toEqual(["Company", "Employees", "Summary", "Website"]);
  });

  it("has no nextCursor unless paging is asked for", async () => {
    const res = await app.api("GET", rowsPath());
    expect(Object.keys(res.body)).toEqual(["rows"]);
  });
});

describe("Get Row (§4.2)", () => {
  it("returns the single row object without an envelope", async () => {
    const res = await app.api("GET", rowPath(0));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: rows[0].id,
      cells: { Company: "Acme", Website: "https://acme.com", Employees: "42", Summary: "" },
    });
  });

  it("expand=true gives the expanded cells", async () => {
    const res = await app.api("GET", `${rowPath(1)}?expand=1`);
    expect(res.body.id).toBe(rows[1].id);
    expect(res.body.cells.Company).toEqual({ value: "Globex" });
    expect(res.body.cells.Summary).toMatchObject({
      value: "Supplied by hand",
      status: "done",
      metadata: { suppliedByUser: true },
    });
  });
});

describe("Get Base Structure (§4.3)", () => {
  it("returns sheet, sheetColumns with exactly the §2.5 fields, and primaryColumn", async () => {
    const res = await app.api("GET", `/api/v1/bases/${f.baseId}/base-structure`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["primaryColumn", "sheet", "sheetColumns"]);
    expect(res.body.sheet).toEqual({
      id: expect.stringMatching(/^sheet_[A-Za-z0-9]{16,}$/),
      baseId: f.baseId,
      name: "Companies",
    });
    const columns = res.body.sheetColumns;
    expect(columns.map((c: any) => c.name)).toEqual(["Company", "Website", "Employees", "Summary"]);
    columns.forEach((c: any, i: number) => {
      expect(Object.keys(c).sort()).toEqual(COLUMN_KEYS);
      expect(c.id).toMatch(/^scol_[A-Za-z0-9]{16,}$/);
      expect(c.index).toBe(i);
    });
    expect(columns.filter((c: any) => c.isPrimary)).toHaveLength(1);
    expect(res.body.primaryColumn).toEqual(columns[0]);
    expect(columns[3]).toEqual({
      id: f.col.Summary,
      index: 3,
      name: "Summary",
      type: "long-text",
      isAiEnabled: true,
      isPrimary: false,
      inputColumnIds: [f.col.Company, f.col.Website],
      tools: [{ name: "web-search" }],
      instructions: "Summarise.",
      columnOptions: {},
      fill: null,
      runIf: null,
    });
    expect(columns[1]).toMatchObject({
      inputColumnIds: [],
      tools: [],
      instructions: "",
      isAiEnabled: false,
      columnOptions: {},
    });
  });
});

describe("expand accepts true, false, 1 and 0, in any case, and nothing else", () => {
  const expanded = (res: any) =>
    typeof res.body.rows?.[0]?.cells.Company === "object" || typeof res.body.cells?.Company === "object";
  for (const [raw, isExpanded] of [
    ["true", true],
    ["1", true],
    ["false", false],
    ["0", false],
  ] as const) {
    it(`expand=${raw}`, async () => {
      for (const path of [rowsPath(), rowPath()]) {
        const res = await app.api("GET", `${path}?expand=${raw}`);
        expect(res.status).toBe(200);
        expect(expanded(res)).toBe(isExpanded);
      }
    });
  }
  // Case does not matter ("True" is what Python sends); anything else is a mistake.
  for (const raw of ["yes", "2", "", "true,false"]) {
    scenarios(
      () => app,
      [
        {
          name: `Get Rows expand=${JSON.stringify(raw)} is 400`,
          method: "GET",
          path: () => `${rowsPath()}?expand=${raw}`,
          status: 400,
          code: "invalid_query",
          ...EMITS_NOTHING,
        },
        {
          name: `Get Row expand=${JSON.stringify(raw)} is 400`,
          method: "GET",
          path: () => `${rowPath()}?expand=${raw}`,
          status: 400,
          code: "invalid_query",
          ...EMITS_NOTHING,
        },
      ],
    );
  }
});

describe("column names that are awkward in JSON or JavaScript", () => {
  it("every read endpoint shows them like any other name", async () => {
    const names = ["Company", "__proto__", "constructor", 'He said "hi" \\ ok', "Ünïcødé 🚀"];
    const g = await createBase(app, { columns: names.map((name) => ({ name })), name: "Awkward" });
    const cells = Object.fromEntries(names.map((n, i) => [n, `v${i} "quoted"\n`]));
    const [added] = await addRows(app, g.baseId, [cells]);
    expect(added.cells).toEqual(cells);
    expect(Object.keys(added.cells)).toEqual(names);
    const all = await app.api("GET", `/api/v1/bases/${g.baseId}/rows`);
    expect(all.body.rows).toEqual([{ id: added.id, cells }]);
    expect(all.text).toContain('"__proto__":"v1 \\"quoted\\"\\n"');
    const one = await app.api("GET", `/api/v1/bases/${g.baseId}/rows/${added.id}`);
    expect(one.text).toBe(JSON.stringify(all.body.rows[0]));
    const page = await app.api("GET", `/api/v1/bases/${g.baseId}/rows?limit=5`);
    expect(page.body.rows).toEqual(all.body.rows);
    const expanded = await app.api("GET", `/api/v1/bases/${g.baseId}/rows?expand=true`);
    expect(Object.keys(expanded.body.rows[0].cells)).toEqual(names);
  });
});
