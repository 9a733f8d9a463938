import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { addRows, COLUMN_KEYS, COMPANIES } from "./fixtures.ts";
import { EMITS_NOTHING, runScenario, scenarios } from "./scenario.ts";

// Issue §6: the structure API's bases (columns are in columns.test.ts).

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const structure = async (baseId: string) => (await app.api("GET", `/api/v1/bases/${baseId}/base-structure`)).body;

describe("bases", () => {
  it("POST /api/v1/bases returns 201 with baseId and the §4.3 structure", async () => {
    const res = await runScenario(app, {
      name: "",
      method: "POST",
      path: "/api/v1/bases",
      body: {
        baseName: "Leads",
        columns: [
          { name: "Person", type: "short-text" },
          { name: "Email", type: "email" },
        ],
      },
      status: 201,
    });
    expect(Object.keys(res.body).sort()).toEqual(["baseId", "primaryColumn", "sheet", "sheetColumns"]);
    expect(res.body.baseId).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(res.body.sheet).toEqual({ id: expect.stringMatching(/^sheet_/), baseId: res.body.baseId, name: "Leads" });
    // Without an explicit primary, the first column is the primary.
    expect(res.body.primaryColumn.name).toBe("Person");
    expect(res.body.sheetColumns.map((c: any) => [c.name, c.index, c.isPrimary])).toEqual([
      ["Person", 0, true],
      ["Email", 1, false],
    ]);
    for (const c of res.body.sheetColumns) expect(Object.keys(c).sort()).toEqual(COLUMN_KEYS);
    expect(await structure(res.body.baseId)).toEqual({
      sheet: res.body.sheet,
      sheetColumns: res.body.sheetColumns,
      primaryColumn: res.body.primaryColumn,
    });
  });

  it("a base without columns gets one primary short-text column", async () => {
    const res = await app.api("POST", "/api/v1/bases", { body: { baseName: "Empty" } });
    expect(res.status).toBe(201);
    expect(res.body.sheetColumns).toEqual([
      expect.objectContaining({ name: "Name", type: "short-text", isPrimary: true, index: 0 }),
    ]);
  });

  it("base ids are random and distinct", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++)
      ids.add((await app.api("POST", "/api/v1/bases", { body: { baseName: `B${i}` } })).body.baseId);
    expect(ids.size).toBe(5);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{8}$/);
  });

  it("inputs in a new base may name later columns, by name or id", async () => {
    const f = await createBase(app, {
      columns: [
        { name: "Summary", type: "long-text", isAiEnabled: true, inputColumns: ["Website"] },
        { name: "Company", type: "short-text", isPrimary: true },
        { name: "Website", type: "url" },
      ],
    });
    const s = await structure(f.baseId);
    expect(s.primaryColumn.name).toBe("Company");
    expect(s.sheetColumns[0].inputColumnIds).toEqual([f.col.Website]);
  });

  it("GET /api/v1/bases lists the workspace's bases with row and column counts; GET one gives name and counts", async () => {
    const f = await createBase(app, { ...COMPANIES, name: "Counted" });
    await addRows(app, f.baseId, [{ Company: "a" }, { Company: "b" }, { Company: "c" }]);
    const list = await app.api("GET", "/api/v1/bases");
    expect(list.status).toBe(200);
    const entry = list.body.bases.find((x: any) => x.baseId === f.baseId);
    expect(entry).toMatchObject({ baseId: f.baseId, name: "Counted", rowCount: 3, columnCount: 4 });
    const one = await runScenario(app, {
      name: "",
      method: "GET",
      path: `/api/v1/bases/${f.baseId}`,
      status: 200,
      bodyMatches: { baseId: f.baseId, name: "Counted", rowCount: 3, columnCount: 4 },
    });
    expect(one.body.createdAt).toEqual(expect.any(String));
  });

  it("PATCH renames a base (and its sheet)", async () => {
    const f = await createBase(app, { ...COMPANIES, name: "Old name" });
    const res = await app.api("PATCH", `/api/v1/bases/${f.baseId}`, { body: { baseName: "New name" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ baseId: f.baseId, name: "New name" });
    expect((await structure(f.baseId)).sheet.name).toBe("New name");
  });

  it("DELETE deletes a base and everything in it", async () => {
    const f = await createBase(app, { ...COMPANIES, name: "Doomed" });
    const [row] = await addRows(app, f.baseId, [{ Company: "x" }]);
    const res = await app.api("DELETE", `/api/v1/bases/${f.baseId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ baseId: f.baseId, deleted: true });
    for (const path of [
      `/api/v1/bases/${f.baseId}`,
      `/api/v1/bases/${f.baseId}/rows`,
      `/api/v1/bases/${f.baseId}/rows/${row.id}`,
    ]) {
      expect((await app.api("GET", path)).body.error.code).toBe("base_not_found");
    }
    const db = app.rt.db.prisma;
    expect(await db.row.count({ where: { id: row.id } })).toBe(0);
    expect(await db.column.count({ where: { id: { in: Object.values(f.col) } } })).toBe(0);
    expect(await db.cell.count({ where: { rowId: row.id } })).toBe(0);
    expect(await db.sheet.count({ where: { baseId: f.baseId } })).toBe(0);
    expect((await app.api("DELETE", `/api/v1/bases/${f.baseId}`)).status).toBe(404);
  });

  scenarios(
    () => app,
    [
      {
        name: "an empty base name is 400",
        method: "POST",
        path: "/api/v1/bases",
        body: { baseName: "  " },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "a 201-character base name is 400",
        method: "POST",
        path: "/api/v1/bases",
        body: { baseName: "x".repeat(201) },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "an unknown field is 400",
        method: "POST",
        path: "/api/v1/bases",
        body: { baseName: "x", colour: "red" },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "two primary columns are 409",
        method: "POST",
        path: "/api/v1/bases",
        body: {
          columns: [
            { name: "A", isPrimary: true },
            { name: "B", isPrimary: true },
          ],
        },
        status: 409,
        code: "primary_column_conflict",
        ...EMITS_NOTHING,
      },
      {
        name: "duplicate column names (any case) are 409",
        method: "POST",
        path: "/api/v1/bases",
        body: { columns: [{ name: "Name" }, { name: "NAME" }] },
        status: 409,
        code: "duplicate_column_name",
        ...EMITS_NOTHING,
      },
      {
        name: "an unknown column type is 400",
        method: "POST",
        path: "/api/v1/bases",
        body: { columns: [{ name: "A", type: "currency" }] },
        status: 400,
        code: "unknown_column_type",
        ...EMITS_NOTHING,
      },
      {
        name: "a cycle among new columns is 409",
        method: "POST",
        path: "/api/v1/bases",
        body: { columns: [{ name: "A" }, { name: "B", inputColumns: ["C"] }, { name: "C", inputColumns: ["B"] }] },
        status: 409,
        code: "dependency_cycle",
        ...EMITS_NOTHING,
      },
      {
        name: "PATCH with an empty name is 400",
        method: "PATCH",
        path: "/api/v1/bases/whatever",
        body: { baseName: "" },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
    ],
  );

  it("a refused base leaves nothing behind", async () => {
    const count = (await app.api("GET", "/api/v1/bases")).body.bases.length;
    await app.api("POST", "/api/v1/bases", { body: { baseName: "Half", columns: [{ name: "A" }, { name: "a" }] } });
    expect((await app.api("GET", "/api/v1/bases")).body.bases.length).toBe(count);
  });
});
