import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows, COLUMN_KEYS, COLUMN_SUITE_BASE, columnsPath, getRows } from "./fixtures.ts";
import { EMITS_NOTHING, runScenario } from "./scenario.ts";

// Issue §6: the structure API's columns, and the §2.5 column rules it enforces.

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const structure = async (baseId: string) => (await app.api("GET", `/api/v1/bases/${baseId}/base-structure`)).body;

describe("columns", () => {
  let f: TestBase;
  let rowIds: string[];
  beforeAll(async () => {
    f = await createBase(app, COLUMN_SUITE_BASE);
    rowIds = (
      await addRows(app, f.baseId, [
        { Company: "Acme", Website: "acme.com", Size: "42" },
        { Company: "Globex", Size: "big" },
      ])
    ).map((r) => r.id);
  });

  const idOf = async (name: string) => (await structure(f.baseId)).sheetColumns.find((c: any) => c.name === name).id;

  it("POST creates a column (201) at the end, or at an index", async () => {
    const res = await runScenario(app, {
      name: "",
      method: "POST",
      path: columnsPath(f.baseId),
      body: { name: "Country", type: "short-text", instructions: "The country." },
      status: 201,
      bodyMatches: {
        name: "Country",
        type: "short-text",
        index: 4,
        isPrimary: false,
        isAiEnabled: false,
        inputColumnIds: [],
        tools: [],
        instructions: "The country.",
        columnOptions: {},
      },
    });
    expect(Object.keys(res.body).sort()).toEqual(COLUMN_KEYS);
    expect(res.body.id).toMatch(/^scol_/);
    const second = await app.api("POST", columnsPath(f.baseId), { body: { name: "Rank", type: "number", index: 1 } });
    expect(second.body.index).toBe(1);
    const s = await structure(f.baseId);
    expect(s.sheetColumns.map((c: any) => c.name)).toEqual([
      "Company",
      "Rank",
      "Website",
      "Size",
      "Summary",
      "Country",
    ]);
    expect(s.sheetColumns.map((c: any) => c.index)).toEqual([0, 1, 2, 3, 4, 5]);
    // Existing rows show the new columns empty.
    expect((await getRows(app, f.baseId))[0].cells).toMatchObject({ Country: "", Rank: "" });
  });

  it("PATCH renames a column and keeps every cell", async () => {
    const res = await app.api("PATCH", columnsPath(f.baseId, f.col.Company), { body: { name: "Organisation" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: f.col.Company, name: "Organisation", isPrimary: true });
    const rows = await getRows(app, f.baseId);
    expect(rows.map((r) => r.cells.Organisation)).toEqual(["Acme", "Globex"]);
    expect(rows[0].cells).not.toHaveProperty("Company");
    // Renaming to a different case of its own name is allowed.
    expect(
      (await app.api("PATCH", columnsPath(f.baseId, f.col.Company), { body: { name: "ORGANISATION" } })).status,
    ).toBe(200);
    await app.api("PATCH", columnsPath(f.baseId, f.col.Company), { body: { name: "Company" } });
  });

  it("PATCH moves a column by index, keeping indexes contiguous", async () => {
    await app.api("PATCH", columnsPath(f.baseId, f.col.Summary), { body: { index: 0 } });
    let names = (await structure(f.baseId)).sheetColumns.map((c: any) => c.name);
    expect(names).toEqual(["Summary", "Company", "Rank", "Website", "Size", "Country"]);
    await app.api("PATCH", columnsPath(f.baseId, f.col.Summary), { body: { index: 99 } });
    const s = await structure(f.baseId);
    names = s.sheetColumns.map((c: any) => c.name);
    expect(names).toEqual(["Company", "Rank", "Website", "Size", "Country", "Summary"]);
    expect(s.sheetColumns.map((c: any) => c.index)).toEqual([0, 1, 2, 3, 4, 5]);
    // Cells follow the names, not the positions.
    expect((await getRows(app, f.baseId))[0].cells).toMatchObject({ Company: "Acme", Website: "https://acme.com" });
  });

  it("PATCH changes the type and re-normalises values; values the type cannot hold are cleared", async () => {
    const res = await app.api("PATCH", columnsPath(f.baseId, f.col.Size), { body: { type: "number" } });
    expect(res.status).toBe(200);
    expect(res.body.type).toBe("number");
    const rows = await getRows(app, f.baseId);
    expect(rows.map((r) => r.cells.Size)).toEqual(["42", ""]);
  });

  it("PATCH changes AI settings, tools and inputs", async () => {
    const res = await app.api("PATCH", columnsPath(f.baseId, f.col.Summary), {
      body: {
        instructions: "Two sentences.",
        tools: ["web-search", "scrape-url"],
        inputColumnIds: [f.col.Website],
        columnOptions: { model: "openai:gpt-4.1-mini", autoRun: "never" },
      },
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
    const res = await app.api("PATCH", columnsPath(f.baseId, f.col.Website), { body: { isPrimary: true } });
    expect(res.status).toBe(200);
    let s = await structure(f.baseId);
    expect(s.sheetColumns.filter((c: any) => c.isPrimary).map((c: any) => c.name)).toEqual(["Website"]);
    expect(s.primaryColumn.id).toBe(f.col.Website);
    await app.api("PATCH", columnsPath(f.baseId, f.col.Company), { body: { isPrimary: true } });
    s = await structure(f.baseId);
    expect(s.primaryColumn.id).toBe(f.col.Company);
  });

  it("dependency cycles are 409 dependency_cycle naming the path", async () => {
    // Summary ← Website; making Website take Summary as input closes the loop.
    const res = await runScenario(app, {
      name: "",
      method: "PATCH",
      path: columnsPath(f.baseId, f.col.Website),
      body: { inputColumnIds: [f.col.Summary] },
      status: 409,
      code: "dependency_cycle",
      ...EMITS_NOTHING,
    });
    expect(res.body.error.message).toMatch(/Website → Summary → Website|Summary → Website → Summary/);
    expect(res.body.error.details.path[0]).toBe(res.body.error.details.path.at(-1));
    expect(res.body.error.details.names).toEqual(expect.arrayContaining(["Website", "Summary"]));

    const country = await idOf("Country");
    const self = await app.api("PATCH", columnsPath(f.baseId, country), { body: { inputColumns: ["Country"] } });
    expect(self.status).toBe(409);
    expect(self.body.error.code).toBe("dependency_cycle");

    // A longer loop through three columns.
    expect(
      (await app.api("PATCH", columnsPath(f.baseId, country), { body: { inputColumns: ["Summary"] } })).status,
    ).toBe(200);
    const three = await app.api("PATCH", columnsPath(f.baseId, f.col.Website), { body: { inputColumns: ["Country"] } });
    expect(three.status).toBe(409);
    expect(three.body.error.message).toMatch(/Country/);
    expect(three.body.error.message).toMatch(/Summary/);
    // Nothing changed.
    const s = await structure(f.baseId);
    expect(s.sheetColumns.find((c: any) => c.name === "Website").inputColumnIds).toEqual([]);
  });

  it("duplicate names are 409, case-insensitively, on create and on rename", async () => {
    await runScenario(app, {
      name: "",
      method: "POST",
      path: columnsPath(f.baseId),
      body: { name: "company" },
      status: 409,
      code: "duplicate_column_name",
      ...EMITS_NOTHING,
    });
    await runScenario(app, {
      name: "",
      method: "POST",
      path: columnsPath(f.baseId),
      body: { name: " WEBSITE " },
      status: 409,
      code: "duplicate_column_name",
      ...EMITS_NOTHING,
    });
    await runScenario(app, {
      name: "",
      method: "PATCH",
      path: columnsPath(f.baseId, f.col.Size),
      body: { name: "Country" },
      status: 409,
      code: "duplicate_column_name",
      ...EMITS_NOTHING,
    });
  });

  it("a second primary column is 409", async () => {
    await runScenario(app, {
      name: "",
      method: "POST",
      path: columnsPath(f.baseId),
      body: { name: "Other", isPrimary: true },
      status: 409,
      code: "primary_column_conflict",
      ...EMITS_NOTHING,
    });
  });

  it("the primary column cannot stop being primary by itself", async () => {
    await runScenario(app, {
      name: "",
      method: "PATCH",
      path: columnsPath(f.baseId, f.col.Company),
      body: { isPrimary: false },
      status: 409,
      code: "primary_column_required",
      ...EMITS_NOTHING,
    });
  });

  it("deleting a column used as input is 409 column_in_use; with force the dependents are cleaned", async () => {
    const res = await runScenario(app, {
      name: "",
      method: "DELETE",
      path: columnsPath(f.baseId, f.col.Website),
      status: 409,
      code: "column_in_use",
      ...EMITS_NOTHING,
    });
    expect(res.body.error.message).toContain("Summary");
    expect(res.body.error.details.dependents).toEqual([f.col.Summary]);
    expect((await structure(f.baseId)).sheetColumns.some((c: any) => c.id === f.col.Website)).toBe(true);

    const forced = await app.api("DELETE", `${columnsPath(f.baseId, f.col.Website)}?force=true`);
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
    await runScenario(app, {
      name: "",
      method: "DELETE",
      path: columnsPath(f.baseId, f.col.Company),
      status: 409,
      code: "primary_column_required",
      ...EMITS_NOTHING,
    });
    const forced = await app.api("DELETE", `${columnsPath(f.baseId, f.col.Company)}?force=1`);
    expect(forced.status).toBe(200);
    const s = await structure(f.baseId);
    expect(s.sheetColumns.filter((c: any) => c.isPrimary)).toHaveLength(1);
    expect(s.primaryColumn.id).toBe(s.sheetColumns[0].id);
    expect(s.sheetColumns.find((c: any) => c.id === f.col.Summary).inputColumnIds).toEqual([]);
  });

  it("deleting a plain column drops its values", async () => {
    const res = await app.api("DELETE", columnsPath(f.baseId, f.col.Size));
    expect(res.status).toBe(200);
    const [row] = await app.rt.db.prisma.row.findMany({ where: { id: rowIds[0] } });
    expect(Object.keys(row.values as object)).not.toContain(f.col.Size);
  });

  it("the last column cannot be deleted, even with force", async () => {
    const g = await createBase(app, { columns: [{ name: "Only" }], name: "Single" });
    await runScenario(app, {
      name: "",
      method: "DELETE",
      path: `${columnsPath(g.baseId, g.col.Only)}?force=true`,
      status: 409,
      code: "primary_column_required",
      ...EMITS_NOTHING,
    });
  });
});
