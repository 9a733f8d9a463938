import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";

// The nine column types through the API: Add Rows and Update Rows store the normalised value
// (always a string) and refuse values the type cannot hold.

let app: TestApp;
let f: TestBase;

const TYPES = [
  { name: "Short", type: "short-text", isPrimary: true },
  { name: "Long", type: "long-text" },
  { name: "Count", type: "number" },
  { name: "Site", type: "url" },
  { name: "Mail", type: "email" },
  { name: "Doc", type: "file" },
  { name: "Done", type: "checkbox" },
  { name: "When", type: "date" },
  { name: "Stage", type: "select", columnOptions: { options: ["Lead", "Customer"] } },
];

beforeAll(async () => {
  app = await createTestApp();
  f = await createBase(app, { columns: TYPES, name: "Types" });
});
afterAll(() => app.close());

describe("types through Add Rows and Update Rows", () => {
  it("the base structure reports each type and the select options", async () => {
    const s = (await app.api("GET", `/api/v1/bases/${f.baseId}/base-structure`)).body;
    expect(s.sheetColumns.map((c: any) => c.type)).toEqual(TYPES.map((t) => t.type));
    expect(s.sheetColumns[8].columnOptions).toEqual({ options: ["Lead", "Customer"] });
  });

  it("stores every value normalised, as a string", async () => {
    const res = await app.api("POST", `/api/v1/bases/${f.baseId}/add-rows`, {
      body: {
        rows: [
          {
            cells: {
              Short: 12,
              Long: "a\nb",
              Count: "1_500.50",
              Site: "acme.com",
              Mail: "Ada@Example.COM",
              Doc: "https://example.com/a.pdf",
              Done: true,
              When: "2024-03-01T12:00:00+01:00",
              Stage: "customer",
            },
          },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.rows[0].cells).toEqual({
      Short: "12",
      Long: "a\nb",
      Count: "1500.5",
      Site: "https://acme.com",
      Mail: "Ada@example.com",
      Doc: "https://example.com/a.pdf",
      Done: "true",
      When: "2024-03-01T11:00:00.000Z",
      Stage: "Customer",
    });
    const back = await app.api("GET", `/api/v1/bases/${f.baseId}/rows/${res.body.rows[0].id}`);
    expect(back.body.cells).toEqual(res.body.rows[0].cells);
  });

  it("refuses a wrong value in every typed column at once, naming each column", async () => {
    const res = await app.api("POST", `/api/v1/bases/${f.baseId}/add-rows`, {
      body: {
        rows: [
          {
            cells: {
              Short: { x: 1 },
              Count: "ten",
              Site: "not a url",
              Mail: "nope",
              Doc: "/etc/passwd",
              Done: "maybe",
              When: "2023-02-30",
              Stage: "Prospect",
            },
          },
        ],
      },
    });
    expect(res.status).toBe(400);
    const problems = res.body.error.details.errors.map((e: any) => [e.column, e.code]);
    expect(problems.sort()).toEqual(
      [
        ["Count", "invalid_value"],
        ["Doc", "invalid_value"],
        ["Done", "invalid_value"],
        ["Mail", "invalid_value"],
        ["Short", "invalid_value"],
        ["Site", "invalid_value"],
        ["Stage", "invalid_value"],
        ["When", "invalid_value"],
      ].sort(),
    );
    const stage = res.body.error.details.errors.find((e: any) => e.column === "Stage");
    expect(stage.message).toMatch(/Lead, Customer/);
  });

  it("empty string and null both mean no value, for every type", async () => {
    const cells = Object.fromEntries(TYPES.map((t) => [t.name, ""]));
    const res = await app.api("POST", `/api/v1/bases/${f.baseId}/add-rows`, {
      body: { rows: [{ cells }, { cells: { ...cells, Count: null, Done: null } }] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.rows).toHaveLength(2);
    for (const r of res.body.rows) {
      expect(Object.keys(r.cells)).toHaveLength(TYPES.length);
      expect(Object.values(r.cells).every((v) => v === "")).toBe(true);
    }
  });

  it("Update Rows normalises the same way and reports bad values per column", async () => {
    const [row] = (
      await app.api("POST", `/api/v1/bases/${f.baseId}/add-rows`, { body: { rows: [{ cells: { Short: "u" } }] } })
    ).body.rows;
    const res = await app.api("POST", `/api/v1/bases/${f.baseId}/update-rows`, {
      body: {
        rows: [
          { id: row.id, cells: { Count: 7, Done: "no" } },
          { id: row.id, cells: { When: "tomorrow" } },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.rows[0].cells).toMatchObject({ Count: "7", Done: "false" });
    expect(res.body.errors).toEqual([
      { rowId: row.id, column: "When", code: "invalid_value", message: expect.any(String) },
    ]);
  });
});
