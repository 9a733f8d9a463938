import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { addRows, COLUMN_KEYS, createBase, getRows, type Fixture } from "./fixtures.ts";
import { runScenario, scenarios } from "./scenario.ts";

// Issue §6: the structure API — bases and columns — and the §2.5 column rules it enforces.

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const structure = async (baseId: string) => (await app.api("GET", `/api/v1/bases/${baseId}/base-structure`)).body;
const colPath = (baseId: string, id = "") => `/api/v1/bases/${baseId}/columns${id ? `/${id}` : ""}`;

describe("bases", () => {
  it("POST /api/v1/bases returns 201 with baseId and the §4.3 structure", async () => {
    const res = await runScenario(app, {
      name: "",
      method: "POST",
      path: "/api/v1/bases",
      body: { baseName: "Leads", columns: [{ name: "Person", type: "short-text" }, { name: "Email", type: "email" }] },
      status: 201,
    });
    expect(Object.keys(res.body).sort()).toEqual(["baseId", "primaryColumn", "sheet", "sheetColumns"]);
    expect(res.body.baseId).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(res.body.sheet).toEqual({ id: expect.stringMatching(/^sheet_/), baseId: res.body.baseId, name: "Leads" });
    // Without an explicit primary, the first column is the primary.
    expect(res.body.primaryColumn.name).toBe("Person");
    expect(res.body.sheetColumns.map((c: any) => [c.name, c.index, c.isPrimary])).toEqual([["Person", 0, true], ["Email", 1, false]]);
    for (const c of res.body.sheetColumns) expect(Object.keys(c).sort()).toEqual(COLUMN_KEYS);
    expect(await structure(res.body.baseId)).toEqual({ sheet: res.body.sheet, sheetColumns: res.body.sheetColumns, primaryColumn: res.body.primaryColumn });
  });

  it("a base without columns gets one primary short-text column", async () => {
    const res = await app.api("POST", "/api/v1/bases", { body: { baseName: "Empty" } });
    expect(res.status).toBe(201);
    expect(res.body.sheetColumns).toEqual([expect.objectContaining({ name: "Name", type: "short-text", isPrimary: true, index: 0 })]);
  });

  it("base ids are random and distinct", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await app.api("POST", "/api/v1/bases", { body: { baseName: `B${i}` } })).body.baseId);
    expect(ids.size).toBe(5);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{8}$/);
  });

  it("inputs in a new base may name later columns, by name or id", async () => {
    const f = await createBase(app, [
      { name: "Summary", type: "long-text", isAiEnabled: true, inputColumns: ["Website"] },
      { name: "Company", type: "short-text", isPrimary: true },
      { name: "Website", type: "url" },
    ]);
    const s = await structure(f.baseId);
    expect(s.primaryColumn.name).toBe("Company");
    expect(s.sheetColumns[0].inputColumnIds).toEqual([f.col.Website]);
  });

  it("GET /api/v1/bases lists the workspace's bases with row and column counts; GET one gives name and counts", async () => {
    const f = await createBase(app, undefined, app.keyA, "Counted");
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
    const f = await createBase(app, undefined, app.keyA, "Old name");
    const res = await app.api("PATCH", `/api/v1/bases/${f.baseId}`, { body: { baseName: "New name" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ baseId: f.baseId, name: "New name" });
    expect((await structure(f.baseId)).sheet.name).toBe("New name");
  });

  it("DELETE deletes a base and everything in it", async () => {
    const f = await createBase(app, undefined, app.keyA, "Doomed");
    const [row] = await addRows(app, f.baseId, [{ Company: "x" }]);
    const res = await app.api("DELETE", `/api/v1/bases/${f.baseId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ baseId: f.baseId, deleted: true });
    for (const path of [`/api/v1/bases/${f.baseId}`, `/api/v1/bases/${f.baseId}/rows`, `/api/v1/bases/${f.baseId}/rows/${row.id}`]) {
      expect((await app.api("GET", path)).body.error.code).toBe("base_not_found");
    }
    const db = app.rt.db.prisma;
    expect(await db.row.count({ where: { id: row.id } })).toBe(0);
    expect(await db.column.count({ where: { id: { in: Object.values(f.col) } } })).toBe(0);
    expect(await db.cell.count({ where: { rowId: row.id } })).toBe(0);
    expect(await db.sheet.count({ where: { baseId: f.baseId } })).toBe(0);
    expect((await app.api("DELETE", `/api/v1/bases/${f.baseId}`)).status).toBe(404);
  });

  scenarios(() => app, [
    { name: "an empty base name is 400", method: "POST", path: "/api/v1/bases", body: { baseName: "  " }, status: 400, code: "validation_failed" },
    { name: "a 201-character base name is 400", method: "POST", path: "/api/v1/bases", body: { baseName: "x".repeat(201) }, status: 400, code: "validation_failed" },
    { name: "an unknown field is 400", method: "POST", path: "/api/v1/bases", body: { baseName: "x", colour: "red" }, status: 400, code: "validation_failed" },
    { name: "two primary columns are 409", method: "POST", path: "/api/v1/bases", body: { columns: [{ name: "A", isPrimary: true }, { name: "B", isPrimary: true }] }, status: 409, code: "primary_column_conflict" },
    { name: "duplicate column names (any case) are 409", method: "POST", path: "/api/v1/bases", body: { columns: [{ name: "Name" }, { name: "NAME" }] }, status: 409, code: "duplicate_column_name" },
    { name: "an unknown column type is 400", method: "POST", path: "/api/v1/bases", body: { columns: [{ name: "A", type: "currency" }] }, status: 400, code: "unknown_column_type" },
    {
      name: "a cycle among new columns is 409",
      method: "POST",
      path: "/api/v1/bases",
      body: { columns: [{ name: "A" }, { name: "B", inputColumns: ["C"] }, { name: "C", inputColumns: ["B"] }] },
      status: 409,
      code: "dependency_cycle",
    },
    { name: "PATCH with an empty name is 400", method: "PATCH", path: "/api/v1/bases/whatever", body: { baseName: "" }, status: 400, code: "validation_failed" },
  ]);

  it("a refused base leaves nothing behind", async () => {
    const count = (await app.api("GET", "/api/v1/bases")).body.bases.length;
    await app.api("POST", "/api/v1/bases", { body: { baseName: "Half", columns: [{ name: "A" }, { name: "a" }] } });
    expect((await app.api("GET", "/api/v1/bases")).body.bases.length).toBe(count);
  });
});

describe("columns", () => {
  let f: Fixture;
  let rowIds: string[];
  beforeAll(async () => {
    f = await createBase(app, [
      { name: "Company", type: "short-text", isPrimary: true },
      { name: "Website", type: "url" },
      { name: "Size", type: "short-text" },
      { name: "Summary", type: "long-text", isAiEnabled: true, inputColumns: ["Company", "Website"], tools: [{ name: "web-search" }] },
    ]);
    rowIds = (await addRows(app, f.baseId, [
      { Company: "Acme", Website: "acme.com", Size: "42" },
      { Company: "Globex", Size: "big" },
    ])).map((r) => r.id);
  });

  const idOf = async (name: string) => (await structure(f.baseId)).sheetColumns.find((c: any) => c.name === name).id;

  it("POST creates a column (201) at the end, or at an index", async () => {
    const res = await runScenario(app, {
      name: "",
      method: "POST",
      path: colPath(f.baseId),
      body: { name: "Country", type: "short-text", instructions: "The country." },
      status: 201,
      bodyMatches: { name: "Country", type: "short-text", index: 4, isPrimary: false, isAiEnabled: false, inputColumnIds: [], tools: [], instructions: "The country.", columnOptions: {} },
    });
    expect(Object.keys(res.body).sort()).toEqual(COLUMN_KEYS);
    expect(res.body.id).toMatch(/^scol_/);
    const second = await app.api("POST", colPath(f.baseId), { body: { name: "Rank", type: "number", index: 1 } });
    expect(second.body.index).toBe(1);
    const s = await structure(f.baseId);
    expect(s.sheetColumns.map((c: any) => c.name)).toEqual(["Company", "Rank", "Website", "Size", "Summary", "Country"]);
    expect(s.sheetColumns.map((c: any) => c.index)).toEqual([0, 1, 2, 3, 4, 5]);
    // Existing rows show the new columns empty.
    expect((await getRows(app, f.baseId))[0].cells).toMatchObject({ Country: "", Rank: "" });
  });

  it("PATCH renames a column and keeps every cell", async () => {
    const res = await app.api("PATCH", colPath(f.baseId, f.col.Company), { body: { name: "Organisation" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: f.col.Company, name: "Organisation", isPrimary: true });
    const rows = await getRows(app, f.baseId);
    expect(rows.map((r) => r.cells.Organisation)).toEqual(["Acme", "Globex"]);
    expect(rows[0].cells).not.toHaveProperty("Company");
    // Renaming to a different case of its own name is allowed.
    expect((await app.api("PATCH", colPath(f.baseId, f.col.Company), { body: { name: "ORGANISATION" } })).status).toBe(200);
    await app.api("PATCH", colPath(f.baseId, f.col.Company), { body: { name: "Company" } });
  });

  it("PATCH moves a column by index, keeping indexes contiguous", async () => {
    await app.api("PATCH", colPath(f.baseId, f.col.Summary), { body: { index: 0 } });
    let names = (await structure(f.baseId)).sheetColumns.map((c: any) => c.name);
    expect(names).toEqual(["Summary", "Company", "Rank", "Website", "Size", "Country"]);
    await app.api("PATCH", colPath(f.baseId, f.col.Summary), { body: { index: 99 } });
    const s = await structure(f.baseId);
    names = s.sheetColumns.map((c: any) => c.name);
    expect(names).toEqual(["Company", "Rank", "Website", "Size", "Country", "Summary"]);
    expect(s.sheetColumns.map((c: any) => c.index)).toEqual([0, 1, 2, 3, 4, 5]);
    // Cells follow the names, not the positions.
    expect((await getRows(app, f.baseId))[0].cells).toMatchObject({ Company: "Acme", Website: "https://acme.com" });
  });

  it("PATCH changes the type and re-normalises values; values the type cannot hold are cleared", async () => {
    const res = await app.api("PATCH", colPath(f.baseId, f.col.Size), { body: { type: "number" } });
    expect(res.status).toBe(200);
    expect(res.body.type).toBe("number");
    const rows = await getRows(app, f.baseId);
    expect(rows.map((r) => r.cells.Size)).toEqual(["42", ""]);
  });

  it("PATCH changes AI settings, tools and inputs", async () => {
    const res = await app.api("PATCH", colPath(f.baseId, f.col.Summary), {
      body: { instructions: "Two sentences.", tools: ["web-search", "scrape-url"], inputColumnIds: [f.col.Website], columnOptions: { model: "openai:gpt-4.1-mini", autoRun: "never" } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      instructions: "Two sentences.",
      tools: [{ name: "web-search" }, { name: "scrape-url" }],
      inputColumnIds: [f.col.Website],
      columnOptions: { model: "openai:gpt-4.1-mini", autoRun: "never" },
    });
  });

  it("making another column primary hands the role over: exactly one primary", async () => {
    const res = await app.api("PATCH", colPath(f.baseId, f.col.Website), { body: { isPrimary: true } });
    expect(res.status).toBe(200);
    let s = await structure(f.baseId);
    expect(s.sheetColumns.filter((c: any) => c.isPrimary).map((c: any) => c.name)).toEqual(["Website"]);
    expect(s.primaryColumn.id).toBe(f.col.Website);
    await app.api("PATCH", colPath(f.baseId, f.col.Company), { body: { isPrimary: true } });
    s = await structure(f.baseId);
    expect(s.primaryColumn.id).toBe(f.col.Company);
  });

  it("dependency cycles are 409 dependency_cycle naming the path", async () => {
    // Summary ← Website; making Website take Summary as input closes the loop.
    const res = await runScenario(app, {
      name: "",
      method: "PATCH",
      path: colPath(f.baseId, f.col.Website),
      body: { inputColumnIds: [f.col.Summary] },
      status: 409,
      code: "dependency_cycle",
    });
    expect(res.body.error.message).toMatch(/Website → Summary → Website|Summary → Website → Summary/);
    expect(res.body.error.details.path[0]).toBe(res.body.error.details.path.at(-1));
    expect(res.body.error.details.names).toEqual(expect.arrayContaining(["Website", "Summary"]));

    const country = await idOf("Country");
    const self = await app.api("PATCH", colPath(f.baseId, country), { body: { inputColumns: ["Country"] } });
    expect(self.status).toBe(409);
    expect(self.body.error.code).toBe("dependency_cycle");

    // A longer loop through three columns.
    expect((await app.api("PATCH", colPath(f.baseId, country), { body: { inputColumns: ["Summary"] } })).status).toBe(200);
    const three = await app.api("PATCH", colPath(f.baseId, f.col.Website), { body: { inputColumns: ["Country"] } });
    expect(three.status).toBe(409);
    expect(three.body.error.message).toMatch(/Country/);
    expect(three.body.error.message).toMatch(/Summary/);
    // Nothing changed.
    const s = await structure(f.baseId);
    expect(s.sheetColumns.find((c: any) => c.name === "Website").inputColumnIds).toEqual([]);
  });

  it("duplicate names are 409, case-insensitively, on create and on rename", async () => {
    await runScenario(app, { name: "", method: "POST", path: colPath(f.baseId), body: { name: "company" }, status: 409, code: "duplicate_column_name" });
    await runScenario(app, { name: "", method: "POST", path: colPath(f.baseId), body: { name: " WEBSITE " }, status: 409, code: "duplicate_column_name" });
    await runScenario(app, { name: "", method: "PATCH", path: colPath(f.baseId, f.col.Size), body: { name: "Country" }, status: 409, code: "duplicate_column_name" });
  });

  it("a second primary column is 409", async () => {
    await runScenario(app, { name: "", method: "POST", path: colPath(f.baseId), body: { name: "Other", isPrimary: true }, status: 409, code: "primary_column_conflict" });
  });

  it("the primary column cannot stop being primary by itself", async () => {
    await runScenario(app, { name: "", method: "PATCH", path: colPath(f.baseId, f.col.Company), body: { isPrimary: false }, status: 409, code: "primary_column_required" });
  });

  it("deleting a column used as input is 409 column_in_use; with force the dependents are cleaned", async () => {
    const res = await runScenario(app, { name: "", method: "DELETE", path: colPath(f.baseId, f.col.Website), status: 409, code: "column_in_use" });
    expect(res.body.error.message).toContain("Summary");
    expect(res.body.error.details.dependents).toEqual([f.col.Summary]);
    expect((await structure(f.baseId)).sheetColumns.some((c: any) => c.id === f.col.Website)).toBe(true);

    const forced = await app.api("DELETE", `${colPath(f.baseId, f.col.Website)}?force=true`);
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({ id: f.col.Website, deleted: true, cleanedDependents: [f.col.Summary] });
    const s = await structure(f.baseId);
    expect(s.sheetColumns.find((c: any) => c.id === f.col.Website)).toBeUndefined();
    expect(s.sheetColumns.find((c: any) => c.id === f.col.Summary).inputColumnIds).toEqual([]);
    expect(s.sheetColumns.map((c: any) => c.index)).toEqual(s.sheetColumns.map((_: any, i: number) => i));
    const rows = await getRows(app, f.baseId);
    expect(rows[0].cells).not.toHaveProperty("Website");
    expect(rows[0].cells.Company).toBe("Acme");
  });

  it("deleting the primary column is 409 primary_column_required; with force another column becomes primary", async () => {
    await runScenario(app, { name: "", method: "DELETE", path: colPath(f.baseId, f.col.Company), status: 409, code: "primary_column_required" });
    const forced = await app.api("DELETE", `${colPath(f.baseId, f.col.Company)}?force=1`);
    expect(forced.status).toBe(200);
    const s = await structure(f.baseId);
    expect(s.sheetColumns.filter((c: any) => c.isPrimary)).toHaveLength(1);
    expect(s.primaryColumn.id).toBe(s.sheetColumns[0].id);
    expect(s.sheetColumns.find((c: any) => c.id === f.col.Summary).inputColumnIds).toEqual([]);
  });

  it("deleting a plain column drops its values", async () => {
    const res = await app.api("DELETE", colPath(f.baseId, f.col.Size));
    expect(res.status).toBe(200);
    const [row] = await app.rt.db.prisma.row.findMany({ where: { id: rowIds[0] } });
    expect(Object.keys(row.values as object)).not.toContain(f.col.Size);
  });

  it("the last column cannot be deleted, even with force", async () => {
    const g = await createBase(app, [{ name: "Only" }], app.keyA, "Single");
    await runScenario(app, { name: "", method: "DELETE", path: `${colPath(g.baseId, g.col.Only)}?force=true`, status: 409, code: "primary_column_required" });
  });

  describe("validation", () => {
    const p = () => colPath(f.baseId);
    scenarios(() => app, [
      { name: "an unknown type is 400 unknown_column_type", method: "POST", path: p, body: { name: "X", type: "money" }, status: 400, code: "unknown_column_type" },
      { name: "a prototype key is not a type", method: "POST", path: p, body: { name: "X", type: "constructor" }, status: 400, code: "unknown_column_type" },
      { name: "an unknown tool is 400 unknown_tool", method: "POST", path: p, body: { name: "X", tools: ["web-crawl"] }, status: 400, code: "unknown_tool" },
      { name: "an unknown tool object is 400 unknown_tool", method: "POST", path: p, body: { name: "X", tools: [{ name: "nope" }] }, status: 400, code: "unknown_tool" },
      { name: "an empty name is 400", method: "POST", path: p, body: { name: "   " }, status: 400, code: "validation_failed" },
      { name: "a 101-character name is 400", method: "POST", path: p, body: { name: "n".repeat(101) }, status: 400, code: "validation_failed" },
      { name: "a 100-character name is fine", method: "POST", path: p, body: { name: "n".repeat(100) }, status: 201 },
      { name: "a missing name is 400", method: "POST", path: p, body: { type: "url" }, status: 400, code: "validation_failed" },
      { name: "an unknown field is 400", method: "POST", path: p, body: { name: "X", colour: "red" }, status: 400, code: "validation_failed" },
      { name: "an input that is not a column of this base is refused", method: "POST", path: p, body: { name: "X", inputColumnIds: ["scol_nope"] }, status: 404, code: "column_not_found" },
      { name: "a select without options is 400", method: "POST", path: p, body: { name: "Stage", type: "select" }, status: 400, code: "validation_failed" },
      { name: "a select with duplicate options is 400", method: "POST", path: p, body: { name: "Stage", type: "select", columnOptions: { options: ["a", "A"] } }, status: 400, code: "validation_failed" },
      { name: "a model without a provider is 400 unknown_model", method: "POST", path: p, body: { name: "X", columnOptions: { model: "gpt-4" } }, status: 400, code: "unknown_model" },
      { name: "an unknown provider is 400 unknown_model", method: "POST", path: p, body: { name: "X", columnOptions: { model: "acme:big" } }, status: 400, code: "unknown_model" },
      { name: "an unknown autoRun is 400", method: "POST", path: p, body: { name: "X", columnOptions: { autoRun: "sometimes" } }, status: 400, code: "validation_failed" },
      { name: "PATCH of an unknown column is 404", method: "PATCH", path: () => colPath(f.baseId, "scol_nope"), body: { name: "Y" }, status: 404, code: "column_not_found" },
      { name: "DELETE of an unknown column is 404", method: "DELETE", path: () => colPath(f.baseId, "scol_nope"), status: 404, code: "column_not_found" },
      { name: "DELETE with force=maybe is 400", method: "DELETE", path: () => `${colPath(f.baseId, "scol_nope")}?force=maybe`, status: 400, code: "invalid_query" },
      { name: "columns of an unknown base are 404", method: "POST", path: "/api/v1/bases/Nn0Nn0Nn/columns", body: { name: "X" }, status: 404, code: "base_not_found" },
    ]);
  });
});
