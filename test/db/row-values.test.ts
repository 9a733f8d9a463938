import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { inTransaction } from "../../lib/db/work.ts";
import { addRows } from "../../lib/domain/rows/write.ts";
import { clearValues, dropColumnValues, patchValues, setColumnValues } from "../../lib/domain/rows/values.ts";

// The statements with which the other aggregates edit a row's values (rows/values.ts), on the
// real database: what each leaves in `rows.values`, and that it touches only the rows it names.

describe("rows/values.ts", () => {
  let app: TestApp;
  let base: TestBase;
  let rowIds: string[];

  beforeAll(async () => {
    app = await createTestApp();
    base = await createBase(app, {
      columns: [{ name: "Company", isPrimary: true }, { name: "City" }, { name: "Size" }],
    });
    const rows = ["Acme", "Globex", "Initech"].map((Company) => ({
      cells: { Company, City: `${Company} City`, Size: "10" },
    }));
    const added = await inTransaction(app.rt, (w) =>
      addRows(w, app.workspaceA, base.baseId, { rows }, app.rt.config.runs),
    );
    rowIds = added.rows.map((r: { id: string }) => r.id);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  const valuesOf = async (rowId: string) =>
    (await app.rt.db.prisma.row.findUniqueOrThrow({ where: { id: rowId }, select: { values: true } })).values as Record<
      string,
      string
    >;

  it("patchValues sets values and removes the key of an empty one, row by row", async () => {
    const { col } = base;
    const [a, b, c] = rowIds;
    await inTransaction(app.rt, (w) =>
      patchValues(w.tx, [
        { rowId: a, columnId: col.City, value: "Paris" },
        { rowId: a, columnId: col.Size, value: "" },
        { rowId: b, columnId: col.City, value: "" },
      ]),
    );
    expect(await valuesOf(a)).toEqual({ [col.Company]: "Acme", [col.City]: "Paris" });
    expect(await valuesOf(b)).toEqual({ [col.Company]: "Globex", [col.Size]: "10" });
    expect(await valuesOf(c)).toEqual({ [col.Company]: "Initech", [col.City]: "Initech City", [col.Size]: "10" });
  });

  it("patchValues with nothing to write writes nothing", async () => {
    const before = await valuesOf(rowIds[2]);
    await inTransaction(app.rt, (w) => patchValues(w.tx, []));
    expect(await valuesOf(rowIds[2])).toEqual(before);
  });

  it("clearValues removes exactly the named values", async () => {
    const { col } = base;
    const [, , c] = rowIds;
    await inTransaction(app.rt, (w) =>
      clearValues(w.tx, [
        { rowId: c, columnId: col.City },
        { rowId: c, columnId: col.Size },
      ]),
    );
    expect(await valuesOf(c)).toEqual({ [col.Company]: "Initech" });
  });

  it("setColumnValues keeps an empty string, as a type change that refuses a value does", async () => {
    const { col } = base;
    const [a, b] = rowIds;
    await inTransaction(app.rt, (w) =>
      setColumnValues(w.tx, col.Size, [
        { rowId: a, value: "" },
        { rowId: b, value: "12" },
      ]),
    );
    expect((await valuesOf(a))[col.Size]).toBe("");
    expect((await valuesOf(b))[col.Size]).toBe("12");
  });

  it("dropColumnValues removes the column's values from every row of the sheet", async () => {
    const { col } = base;
    await inTransaction(app.rt, (w) => dropColumnValues(w.tx, base.sheetId, col.Company));
    for (const id of rowIds) expect(await valuesOf(id)).not.toHaveProperty(col.Company);
  });
});
