import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows, COMPANIES, getRows, rowCount } from "./fixtures.ts";
import { EMITS_NOTHING, runScenario, scenarios } from "./scenario.ts";

// Spec §4.4: Add Rows is all-or-nothing (Update Rows, partial: update-rows.test.ts);
// plus delete-rows. Every error element has the documented shape.

let app: TestApp;
let f: TestBase;

beforeAll(async () => {
  app = await createTestApp();
  f = await createBase(app, COMPANIES);
});
afterAll(() => app.close());

const add = () => `/api/v1/bases/${f.baseId}/add-rows`;
const del = () => `/api/v1/bases/${f.baseId}/delete-rows`;

/** Add Rows errors: { rowIndex, column?, code, message }. */
function expectAddErrorShape(e: any) {
  expect(Object.keys(e).every((k) => ["rowIndex", "column", "code", "message"].includes(k))).toBe(true);
  expect(e.rowIndex).toBeTypeOf("number");
  expect(e.code).toBeTypeOf("string");
  expect(e.message).toBeTypeOf("string");
}

describe("Add Rows (§4.4)", () => {
  it("returns each new row with its id and an entry for every column", async () => {
    const res = await app.api("POST", add(), { body: { rows: [{ cells: { Company: "Acme" } }, { cells: {} }] } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["rows", "runId"]);
    expect(res.body.rows).toEqual([
      { id: expect.stringMatching(/^sr_/), cells: { Company: "Acme", Website: "", Employees: "", Summary: "" } },
      { id: expect.stringMatching(/^sr_/), cells: { Company: "", Website: "", Employees: "", Summary: "" } },
    ]);
    expect(res.body.rows[0].id).not.toBe(res.body.rows[1].id);
  });

  it('normalises a value for a column of another type (number 42 and "42" are both stored as "42")', async () => {
    const [a, b, c] = await addRows(app, f.baseId, [{ Employees: 42 }, { Employees: "42" }, { Employees: " 1_000 " }]);
    expect([a.cells.Employees, b.cells.Employees, c.cells.Employees]).toEqual(["42", "42", "1000"]);
    expect(typeof a.cells.Employees).toBe("string");
  });

  it("accepts an empty rows array", async () => {
    await runScenario(app, {
      name: "",
      method: "POST",
      path: add(),
      body: { rows: [] },
      status: 200,
      bodyEquals: { rows: [], runId: null },
    });
  });

  it("matches column names exactly first, then case-insensitively", async () => {
    const [row] = await addRows(app, f.baseId, [{ company: "lower", EMPLOYEES: "7" }]);
    expect(row.cells).toMatchObject({ Company: "lower", Employees: "7" });
  });

  it("is all-or-nothing: every offending row index and column is listed and nothing is written", async () => {
    const before = await rowCount(app, f.baseId);
    const res = await runScenario(app, {
      name: "mixed",
      method: "POST",
      path: add(),
      body: {
        rows: [
          { cells: { Company: "fine" } },
          { cells: { Nope: "x", Employees: "many" } },
          { id: "sr_abc", cells: { Company: "with id" } },
          { cells: "not an object" },
          { cells: { Website: "not a url", Company: { nested: true } } },
          "not a row",
          { cells: [] },
          { cells: { Company: "fine too" } },
        ],
      },
      status: 400,
      code: "validation_failed",
      ...EMITS_NOTHING,
    });
    const errors = res.body.error.details.errors;
    expect(errors.length).toBeGreaterThanOrEqual(8);
    errors.forEach(expectAddErrorShape);
    const summary = errors.map((e: any) => [e.rowIndex, e.column ?? null, e.code]);
    expect(summary).toEqual(
      expect.arrayContaining([
        [1, "Nope", "unknown_column"],
        [1, "Employees", "invalid_value"],
        [2, null, "id_not_allowed"],
        [3, null, "invalid_row"],
        [4, "Website", "invalid_value"],
        [4, "Company", "invalid_value"],
        [5, null, "invalid_row"],
        [6, null, "invalid_row"],
      ]),
    );
    expect(errors.some((e: any) => e.rowIndex === 0 || e.rowIndex === 7)).toBe(false);
    expect(await rowCount(app, f.baseId)).toBe(before);
  });

  scenarios(
    () => app,
    [
      {
        name: "a body without rows is 400",
        method: "POST",
        path: add,
        body: { cells: {} },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "rows that is not an array is 400",
        method: "POST",
        path: add,
        body: { rows: { cells: {} } },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "a JSON array body is 400",
        method: "POST",
        path: add,
        body: [{ cells: {} }],
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "a JSON null body is 400",
        method: "POST",
        path: add,
        raw: "null",
        headers: { "content-type": "application/json" },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "an empty body is invalid JSON",
        method: "POST",
        path: add,
        raw: "",
        headers: { "content-type": "application/json" },
        status: 400,
        code: "invalid_json",
        ...EMITS_NOTHING,
      },
    ],
  );
});

describe("delete-rows", () => {
  it("deletes rows and reports unknown ids in errors", async () => {
    const rows = await addRows(app, f.baseId, [{ Company: "D1" }, { Company: "D2" }]);
    const before = await rowCount(app, f.baseId);
    const res = await app.api("POST", del(), { body: { rowIds: [rows[0].id, "sr_unknown", rows[1].id] } });
    expect(res.status).toBe(200);
    expect(res.body.deletedRowIds.sort()).toEqual([rows[0].id, rows[1].id].sort());
    expect(res.body.errors).toEqual([{ rowId: "sr_unknown", code: "row_not_found", message: expect.any(String) }]);
    expect(await rowCount(app, f.baseId)).toBe(before - 2);
    const gone = await app.api("GET", `/api/v1/bases/${f.baseId}/rows/${rows[0].id}`);
    expect(gone.status).toBe(404);
  });

  it("deleting already deleted rows reports them", async () => {
    const [row] = await addRows(app, f.baseId, [{ Company: "D3" }]);
    await app.api("POST", del(), { body: { rowIds: [row.id] } });
    const again = await app.api("POST", del(), { body: { rowIds: [row.id] } });
    expect(again.body).toEqual({
      deletedRowIds: [],
      errors: [{ rowId: row.id, code: "row_not_found", message: expect.any(String) }],
    });
  });

  it("keeps the remaining rows in insertion order", async () => {
    const added = await addRows(app, f.baseId, [{ Company: "O1" }, { Company: "O2" }, { Company: "O3" }]);
    await app.api("POST", del(), { body: { rowIds: [added[1].id] } });
    const names = (await getRows(app, f.baseId)).map((r) => r.cells.Company);
    expect(names.slice(-2)).toEqual(["O1", "O3"]);
  });

  scenarios(
    () => app,
    [
      {
        name: "rowIds missing is 400",
        method: "POST",
        path: del,
        body: {},
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "rowIds with a non-string is 400",
        method: "POST",
        path: del,
        body: { rowIds: [1] },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
    ],
  );
});

describe("insertion order", () => {
  it("Get Rows returns rows in the order they were added, across requests", async () => {
    const g = await createBase(app, { columns: [{ name: "N", type: "number" }], name: "Order" });
    for (let batch = 0; batch < 3; batch++) {
      await addRows(
        app,
        g.baseId,
        Array.from({ length: 50 }, (_, i) => ({ N: batch * 50 + i })),
      );
    }
    const values = (await getRows(app, g.baseId)).map((r) => Number(r.cells.N));
    expect(values).toEqual(Array.from({ length: 150 }, (_, i) => i));
  });
});

describe("long values", () => {
  it("writes a request too large for one statement in several, keeping order and every value", async () => {
    // 120 rows of 10,000 characters: several statements at 512 KB of parameters each.
    const g = await createBase(app, {
      columns: [
        { name: "N", type: "number" },
        { name: "Text", type: "long-text" },
      ],
      name: "Long",
    });
    const text = (i: number) => `${i} `.padEnd(10_000, String.fromCharCode(97 + (i % 26)));
    await addRows(
      app,
      g.baseId,
      Array.from({ length: 120 }, (_, i) => ({ N: i, Text: text(i) })),
    );
    const rows = await getRows(app, g.baseId);
    expect(rows.map((r) => Number(r.cells.N))).toEqual(Array.from({ length: 120 }, (_, i) => i));
    expect(rows.every((r) => r.cells.Text === text(Number(r.cells.N)))).toBe(true);
    const updated = await app.api("POST", `/api/v1/bases/${g.baseId}/update-rows`, {
      body: { rows: rows.map((r) => ({ id: r.id, cells: { Text: text(Number(r.cells.N) + 1) } })) },
    });
    expect(updated.status).toBe(200);
    const after = await getRows(app, g.baseId);
    expect(after.every((r) => r.cells.Text === text(Number(r.cells.N) + 1))).toBe(true);
  });
});
