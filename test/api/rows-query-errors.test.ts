import { afterAll, beforeAll, describe, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import type { TestBase } from "../support/bases.ts";
import { createQueryBase } from "./query-base.ts";
import { EMITS_NOTHING, runScenario, scenarios } from "./scenario.ts";

// Query Rows: the requests it refuses, each with its code, and changing nothing. The operators,
// sorting, search and paging: rows-query.test.ts.

let app: TestApp;
let base: TestBase;

beforeAll(async () => {
  app = await createTestApp();
  base = await createQueryBase(app);
});
afterAll(() => app.close());

const query = (body: unknown) => app.api("POST", `/api/v1/bases/${base.baseId}/rows/query`, { body });
const cond = (column: string, op: string, value?: unknown) =>
  value === undefined ? { column, op } : { column, op, value };

describe("errors", () => {
  const path = () => `/api/v1/bases/${base.baseId}/rows/query`;
  const deep = (n: number): unknown => (n === 0 ? cond("Company", "eq", "x") : { not: deep(n - 1) });
  scenarios(
    () => app,
    [
      {
        name: "an unknown column is unknown_column",
        method: "POST",
        path,
        body: { filter: cond("Nope", "eq", 1) },
        status: 400,
        code: "unknown_column",
        ...EMITS_NOTHING,
      },
      {
        name: "an unknown sort column is unknown_column",
        method: "POST",
        path,
        body: { sort: [{ column: "Nope" }] },
        status: 400,
        code: "unknown_column",
      },
      {
        name: "an operator the type cannot take names the bad node",
        method: "POST",
        path,
        body: { filter: { and: [cond("Company", "eq", "x"), { or: [cond("Employees", "contains", "1")] }] } },
        status: 400,
        code: "invalid_filter",
        bodyMatches: { error: { details: { path: "filter.and[1].or[0].op" } } },
      },
      {
        name: "gt on text is invalid_filter",
        method: "POST",
        path,
        body: { filter: cond("Company", "gt", "a") },
        status: 400,
        code: "invalid_filter",
      },
      {
        name: "a number filter needs a number",
        method: "POST",
        path,
        body: { filter: cond("Employees", "gt", "many") },
        status: 400,
        code: "invalid_filter",
      },
      {
        name: "a select filter needs an option",
        method: "POST",
        path,
        body: { filter: cond("Stage", "eq", "IPO") },
        status: 400,
        code: "invalid_filter",
      },
      {
        name: "state predicates need an AI column",
        method: "POST",
        path,
        body: { filter: { column: "Company", status: "done" } },
        status: 400,
        code: "invalid_filter",
      },
      {
        name: "an unknown status",
        method: "POST",
        path,
        body: { filter: { column: "Summary", status: "finished" } },
        status: 400,
        code: "invalid_filter",
      },
      {
        name: "a malformed node",
        method: "POST",
        path,
        body: { filter: { and: [] } },
        status: 400,
        code: "invalid_filter",
        bodyMatches: { error: { details: { path: "filter" } } },
      },
      {
        name: "two kinds in one node",
        method: "POST",
        path,
        body: { filter: { and: [cond("Company", "eq", "x")], or: [] } },
        status: 400,
        code: "invalid_filter",
      },
      {
        name: "a tree too deep",
        method: "POST",
        path,
        body: { filter: deep(12) },
        status: 400,
        code: "invalid_filter",
      },
      {
        name: "a tree too large",
        method: "POST",
        path,
        body: { filter: { or: Array.from({ length: 250 }, () => cond("Company", "eq", "x")) } },
        status: 400,
        code: "invalid_filter",
      },
      {
        name: "a foreign cursor",
        method: "POST",
        path,
        body: { cursor: "bm9wZQ" },
        status: 400,
        code: "invalid_cursor",
      },
      {
        name: "a limit too large",
        method: "POST",
        path,
        body: { limit: 10_001 },
        status: 400,
        code: "validation_failed",
      },
      { name: "unknown fields", method: "POST", path, body: { filters: {} }, status: 400, code: "validation_failed" },
      {
        name: "bad filter JSON on Get Rows",
        method: "GET",
        path: () => `/api/v1/bases/${base.baseId}/rows?filter=%7Bnope`,
        status: 400,
        code: "invalid_filter",
      },
      {
        name: "another workspace's base",
        method: "POST",
        path,
        key: "B",
        body: {},
        status: 404,
        code: "base_not_found",
      },
    ],
  );

  it("a cursor from another sort is refused", async () => {
    const first = await query({ sort: [{ column: "Employees" }], limit: 1 });
    await runScenario(app, {
      name: "",
      method: "POST",
      path: path(),
      body: { sort: [{ column: "Company" }], cursor: first.body.nextCursor },
      status: 400,
      code: "invalid_cursor",
    });
  });
});
