import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import type { TestBase } from "../support/bases.ts";
import { createQueryBase } from "./query-base.ts";

// Query Rows: every operator per column type, sorting, search and paging (the errors:
// rows-query-errors.test.ts).

let app: TestApp;
let base: TestBase;

beforeAll(async () => {
  app = await createTestApp();
  base = await createQueryBase(app);
});
afterAll(() => app.close());

const query = (body: unknown) => app.api("POST", `/api/v1/bases/${base.baseId}/rows/query`, { body });
async function companies(filter: unknown, extra: Record<string, unknown> = {}) {
  const res = await query({ filter, ...extra });
  expect(res.status, res.text).toBe(200);
  return res.body.rows.map((r: { cells: { Company: string } }) => r.cells.Company);
}
const cond = (column: string, op: string, value?: unknown) =>
  value === undefined ? { column, op } : { column, op, value };

describe("operators per type", () => {
  it.each([
    // text: case-insensitive, after Unicode normalisation
    [cond("Company", "eq", "ACME"), ["Acme"]],
    [cond("Company", "neq", "acme"), ["Globex", "Initech", "acme labs", "Umbrella"]],
    [cond("Company", "contains", "ACME"), ["Acme", "acme labs"]],
    [cond("Company", "notContains", "acme"), ["Globex", "Initech", "Umbrella"]],
    [cond("Company", "startsWith", "ac"), ["Acme", "acme labs"]],
    [cond("Company", "in", ["globex", "UMBRELLA", "nobody"]), ["Globex", "Umbrella"]],
    [cond("Notes", "contains", "e\u0301cole"), ["Globex"]],
    [cond("Notes", "contains", "100%"), ["acme labs"]],
    [cond("Notes", "contains", "1%e"), []],
    [cond("Notes", "isEmpty"), ["Umbrella"]],
    [cond("Notes", "isNotEmpty"), ["Acme", "Globex", "Initech", "acme labs"]],
    // numbers compare numerically
    [cond("Employees", "gt", 50), ["Acme"]],
    [cond("Employees", "gte", "50"), ["Acme", "Initech"]],
    [cond("Employees", "lt", 40), ["acme labs"]],
    [cond("Employees", "lte", 40), ["Globex", "acme labs"]],
    [cond("Employees", "eq", 7.5), ["acme labs"]],
    [cond("Employees", "neq", 120), ["Globex", "Initech", "acme labs", "Umbrella"]],
    [cond("Employees", "in", [40, 50]), ["Globex", "Initech"]],
    [cond("Employees", "isEmpty"), ["Umbrella"]],
    // dates compare chronologically
    [cond("Founded", "lt", "2001-01-01"), ["Globex"]],
    [cond("Founded", "gte", "2010-01-01"), ["Initech", "acme labs"]],
    [cond("Founded", "gt", "2020-02-29T09:59:59Z"), ["acme labs"]],
    [cond("Founded", "eq", "2010-01-01"), ["Initech"]],
    // checkboxes compare as booleans (unset is unchecked)
    [cond("Public", "eq", true), ["Acme", "acme labs"]],
    [cond("Public", "eq", "false"), ["Globex", "Initech", "Umbrella"]],
    [cond("Public", "neq", true), ["Globex", "Initech", "Umbrella"]],
    [cond("Public", "isEmpty"), ["Initech", "Umbrella"]],
    // selects by option
    [cond("Stage", "eq", "series b"), ["Acme"]],
    [cond("Stage", "in", ["Seed", "Series A"]), ["Globex", "Initech"]],
    [cond("Stage", "neq", "Seed"), ["Acme", "Initech", "acme labs", "Umbrella"]],
    [cond("Stage", "isNotEmpty"), ["Acme", "Globex", "Initech"]],
  ])("%j", async (filter, expected) => {
    expect(await companies(filter)).toEqual(expected);
  });

  it("combines and, or and not", async () => {
    const filter = {
      and: [
        cond("Employees", "gte", 40),
        { or: [cond("Notes", "contains", "series b"), { not: cond("Public", "eq", true) }] },
      ],
    };
    expect(await companies(filter)).toEqual(["Acme", "Globex", "Initech"]);
  });

  it("takes cell-state predicates on AI columns", async () => {
    expect(await companies({ column: "Summary", status: "idle" })).toHaveLength(5);
    expect(await companies({ column: "Summary", status: "done" })).toEqual([]);
    expect(await companies({ column: "Summary", needsReview: false })).toHaveLength(5);
    expect(await companies({ column: "Summary", confidence: { lt: 0.5 } })).toEqual([]);
  });
});

describe("sort, search, count and paging", () => {
  it("sorts by several typed keys, empty values last, ties in row order", async () => {
    expect(await companies(null, { sort: [{ column: "Employees", direction: "desc" }] })).toEqual([
      "Acme",
      "Initech",
      "Globex",
      "acme labs",
      "Umbrella",
    ]);
    expect(await companies(null, { sort: [{ column: "Employees" }] })).toEqual([
      "acme labs",
      "Globex",
      "Initech",
      "Acme",
      "Umbrella",
    ]);
    expect(await companies(null, { sort: [{ column: "Stage", direction: "desc" }] })).toEqual([
      "Acme",
      "Initech",
      "Globex",
      "acme labs",
      "Umbrella",
    ]);
    expect(
      await companies(null, {
        sort: [
          { column: "Public", direction: "desc" },
          { column: "Company", direction: "desc" },
        ],
      }),
    ).toEqual(["acme labs", "Acme", "Globex", "Umbrella", "Initech"]);
    expect(await companies(null, { sort: [{ column: "Founded" }] })).toEqual([
      "Globex",
      "Acme",
      "Initech",
      "acme labs",
      "Umbrella",
    ]);
  });

  it("searches any cell, case-insensitively, and counts", async () => {
    const res = await query({ search: "SERIES B", count: true });
    expect(res.body.rows.map((r: any) => r.cells.Company)).toEqual(["Acme", "Initech"]);
    expect(res.body.total).toBe(2);
    expect(await companies(null, { search: "2001-05" })).toEqual(["Acme"]);
    // A sort with parameters of its own (a select's options) beside the count.
    const bySelect = await query({ sort: [{ column: "Stage" }], count: true, limit: 2 });
    expect(bySelect.body.rows.map((r: any) => r.cells.Company)).toEqual(["Globex", "Initech"]);
    expect(bySelect.body.total).toBe(5);
  });

  it("pages with cursors that survive changes: no row repeated or skipped", async () => {
    const sort = [{ column: "Employees", direction: "desc" }];
    const first = await query({ sort, limit: 2, count: true });
    expect(first.body.rows.map((r: any) => r.cells.Company)).toEqual(["Acme", "Initech"]);
    expect(first.body.total).toBe(5);
    // A row that sorts before the cursor appears, and one already served is deleted.
    const newco = await app.api("POST", `/api/v1/bases/${base.baseId}/add-rows`, {
      body: { rows: [{ cells: { Company: "Newco", Employees: 999 } }] },
    });
    const second = await query({ sort, limit: 2, cursor: first.body.nextCursor });
    expect(second.body.rows.map((r: any) => r.cells.Company)).toEqual(["Globex", "acme labs"]);
    const third = await query({ sort, limit: 2, cursor: second.body.nextCursor });
    expect(third.body.rows.map((r: any) => r.cells.Company)).toEqual(["Umbrella"]);
    expect(third.body.nextCursor).toBeNull();
    await app.api("POST", `/api/v1/bases/${base.baseId}/delete-rows`, {
      body: { rowIds: [third.body.rows[0].id, newco.body.rows[0].id] },
    });
    const again = await query({ sort, limit: 2, cursor: first.body.nextCursor });
    expect(again.body.rows.map((r: any) => r.cells.Company)).toEqual(["Globex", "acme labs"]);
    await app.api("POST", `/api/v1/bases/${base.baseId}/add-rows`, {
      body: { rows: [{ cells: { Company: "Umbrella" } }] },
    });
  });

  it("expands cells with needsReview and verified", async () => {
    const res = await query({ filter: cond("Company", "eq", "Acme"), expand: true });
    expect(res.body.rows[0].cells.Summary).toMatchObject({
      value: "",
      status: "idle",
      needsReview: false,
      verified: false,
    });
  });

  it("takes the same options on Get Rows as query parameters", async () => {
    const filter = encodeURIComponent(JSON.stringify(cond("Employees", "gte", 40)));
    const res = await app.api(
      "GET",
      `/api/v1/bases/${base.baseId}/rows?filter=${filter}&sort=-Employees,Company&search=e&count=true&limit=2`,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.rows.map((r: any) => r.cells.Company)).toEqual(["Acme", "Initech"]);
    expect(res.body.total).toBe(3);
    expect(res.body.nextCursor).toEqual(expect.any(String));
  });
});
