import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows, COMPANIES } from "./fixtures.ts";
import { EMITS_NOTHING, runScenario, scenarios } from "./scenario.ts";

// Spec §4.5: Update Rows is partial, with an `errors` array whose every element has the documented
// shape. Add Rows and delete-rows: write-rows.test.ts.

let app: TestApp;
let f: TestBase;

beforeAll(async () => {
  app = await createTestApp();
  f = await createBase(app, COMPANIES);
});
afterAll(() => app.close());

const update = () => `/api/v1/bases/${f.baseId}/update-rows`;

/** Update Rows errors: { rowId, column?, code, message } (the documented element shape). */
function expectUpdateErrorShape(e: any) {
  expect(Object.keys(e).every((k) => ["rowId", "column", "code", "message"].includes(k))).toBe(true);
  expect(["rowId", "code", "message"].every((k) => k in e)).toBe(true);
  expect(e.code).toBeTypeOf("string");
  expect(e.message).toBeTypeOf("string");
}

describe("Update Rows (§4.5)", () => {
  let ids: string[];
  beforeAll(async () => {
    const rows = await addRows(app, f.baseId, [{ Company: "U1", Employees: 1 }, { Company: "U2" }, { Company: "U3" }]);
    ids = rows.map((r) => r.id);
  });

  it("updates valid rows, returns them with every column, and errors: [] when all went well", async () => {
    const res = await app.api("POST", update(), {
      body: { rows: [{ id: ids[0], cells: { Employees: "2", Website: "u1.example" } }] },
    });
    expect(res.status).toBe(200);
    const { runId, ...rest } = res.body;
    expect(runId === null || /^run_/.test(runId)).toBe(true);
    expect(rest).toEqual({
      rows: [{ id: ids[0], cells: { Company: "U1", Website: "https://u1.example", Employees: "2", Summary: "" } }],
      errors: [],
    });
    const stored = (await app.api("GET", `/api/v1/bases/${f.baseId}/rows/${ids[0]}`)).body;
    expect(stored.cells).toEqual({ Company: "U1", Website: "https://u1.example", Employees: "2", Summary: "" });
  });

  it("is partial: good rows are applied, each failure is an element of errors", async () => {
    const res = await app.api("POST", update(), {
      body: {
        rows: [
          { id: ids[1], cells: { Employees: "20" } },
          { id: "sr_missing", cells: { Employees: "1" } },
          { id: ids[2], cells: { Employees: "lots", Company: "must not be written" } },
          { id: ids[2], cells: { Nope: "x" } },
          { id: ids[2], cells: { Company: "x".repeat(100_001) } },
          { cells: { Company: "no id" } },
          { id: ids[2] },
          42,
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.rows).toEqual([
      { id: ids[1], cells: { Company: "U2", Website: "", Employees: "20", Summary: "" } },
    ]);
    expect(res.body.errors).toHaveLength(7);
    res.body.errors.forEach(expectUpdateErrorShape);
    expect(res.body.errors.map((e: any) => [e.rowId, e.column ?? null, e.code])).toEqual([
      ["sr_missing", null, "row_not_found"],
      [ids[2], "Employees", "invalid_value"],
      [ids[2], "Nope", "unknown_column"],
      [ids[2], "Company", "value_too_long"],
      [null, null, "invalid_row"],
      [ids[2], null, "invalid_row"],
      [null, null, "invalid_row"],
    ]);
    // A row with any bad cell is not touched at all.
    const untouched = (await app.api("GET", `/api/v1/bases/${f.baseId}/rows/${ids[2]}`)).body;
    expect(untouched.cells.Company).toBe("U3");
  });

  it("answers 200 even when every row failed", async () => {
    await runScenario(app, {
      name: "",
      method: "POST",
      path: update(),
      body: {
        rows: [
          { id: "sr_a", cells: {} },
          { id: "sr_b", cells: {} },
        ],
      },
      status: 200,
      bodyMatches: {
        rows: [],
        errors: [
          { rowId: "sr_a", code: "row_not_found" },
          { rowId: "sr_b", code: "row_not_found" },
        ],
      },
    });
  });

  it('clears a value written as "" and keeps the others', async () => {
    const res = await app.api("POST", update(), { body: { rows: [{ id: ids[0], cells: { Website: "" } }] } });
    expect(res.body.rows[0].cells).toEqual({ Company: "U1", Website: "", Employees: "2", Summary: "" });
  });

  it("applies two updates of the same row in order", async () => {
    const res = await app.api("POST", update(), {
      body: {
        rows: [
          { id: ids[0], cells: { Employees: "3" } },
          { id: ids[0], cells: { Company: "U1b" } },
        ],
      },
    });
    expect(res.body.errors).toEqual([]);
    expect(res.body.rows).toHaveLength(1);
    expect(res.body.rows[0].cells).toMatchObject({ Company: "U1b", Employees: "3" });
  });

  scenarios(
    () => app,
    [
      {
        name: "a body without rows is 400",
        method: "POST",
        path: update,
        body: {},
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "rows: null is 400",
        method: "POST",
        path: update,
        body: { rows: null },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
    ],
  );
});
