import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";

let app: TestApp;
let baseId: string;

beforeAll(async () => {
  app = await createTestApp();
  const res = await app.api("POST", "/api/v1/bases", {
    body: {
      baseName: "Companies",
      columns: [
        { name: "Company", type: "short-text", isPrimary: true },
        { name: "Website", type: "url" },
        { name: "Employees", type: "number" },
        {
          name: "Summary",
          type: "long-text",
          isAiEnabled: true,
          inputColumns: ["Company", "Website"],
          tools: ["web-search"],
          instructions: "Summarise.",
        },
      ],
    },
  });
  expect(res.status).toBe(201);
  baseId = res.body.baseId;
});
afterAll(() => app.close());

describe("add-rows and get-rows", () => {
  it("adds rows, returns every column, and reads them back in order", async () => {
    const add = await app.api("POST", `/api/v1/bases/${baseId}/add-rows`, {
      body: {
        rows: [{ cells: { Company: "Acme", Employees: 42 } }, { cells: { Company: "Globex", Website: "globex.com" } }],
      },
    });
    expect(add.status).toBe(200);
    expect(add.body.rows).toHaveLength(2);
    expect(add.body.rows[0].id).toMatch(/^sr_/);
    expect(add.body.rows[0].cells).toEqual({ Company: "Acme", Website: "", Employees: "42", Summary: "" });
    expect(add.body.rows[1].cells.Website).toBe("https://globex.com");

    const all = await app.api("GET", `/api/v1/bases/${baseId}/rows`);
    expect(all.status).toBe(200);
    expect(all.body.rows.map((r: any) => r.cells.Company)).toEqual(["Acme", "Globex"]);

    const expanded = await app.api("GET", `/api/v1/bases/${baseId}/rows/${add.body.rows[0].id}?expand=true`);
    expect(expanded.body.cells.Company).toEqual({ value: "Acme" });
    expect(expanded.body.cells.Summary.status).toBe("pending");
    expect(expanded.body.cells.Summary.metadata).toEqual({
      sources: null,
      additionalDetails: null,
      confidenceScore: null,
    });
  });

  it("rejects the whole request when any row is invalid", async () => {
    const before = await app.api("GET", `/api/v1/bases/${baseId}/rows`);
    const res = await app.api("POST", `/api/v1/bases/${baseId}/add-rows`, {
      body: {
        rows: [{ cells: { Company: "Ok" } }, { cells: { Nope: "x", Employees: "many" } }, { id: "sr_x", cells: {} }],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    const problems = res.body.error.details.errors;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ rowIndex: 1, column: "Nope", code: "unknown_column" }),
        expect.objectContaining({ rowIndex: 1, column: "Employees", code: "invalid_value" }),
        expect.objectContaining({ rowIndex: 2, code: "id_not_allowed" }),
      ]),
    );
    const after = await app.api("GET", `/api/v1/bases/${baseId}/rows`);
    expect(after.body.rows).toHaveLength(before.body.rows.length);
  });

  it("updates rows partially and reports errors per row", async () => {
    const rows = (await app.api("GET", `/api/v1/bases/${baseId}/rows`)).body.rows;
    const res = await app.api("POST", `/api/v1/bases/${baseId}/update-rows`, {
      body: {
        rows: [
          { id: rows[0].id, cells: { Employees: "43" } },
          { id: "sr_missing", cells: { Employees: "1" } },
          { id: rows[1].id, cells: { Employees: "lots" } },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.rows).toEqual([{ id: rows[0].id, cells: expect.objectContaining({ Employees: "43" }) }]);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ rowId: "sr_missing", code: "row_not_found" }),
      expect.objectContaining({ rowId: rows[1].id, column: "Employees", code: "invalid_value" }),
    ]);
  });

  it("answers 404 for unknown rows and for another workspace's base", async () => {
    expect((await app.api("GET", `/api/v1/bases/${baseId}/rows/sr_nope`)).body.error.code).toBe("row_not_found");
    const other = await app.api("GET", `/api/v1/bases/${baseId}/rows`, { key: app.keyB });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe("base_not_found");
  });
});
