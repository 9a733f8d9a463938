import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { inTransaction } from "../../lib/db/work.ts";
import { addRows } from "../../lib/domain/rows/write.ts";

// On PostgreSQL a large Add Rows sends its rows by COPY (rows/bulk.ts) instead of one INSERT of
// their JSON. Both must store the same values, in the same order, with the same search text, and
// answer with the same rows. On the embedded database both sides take the INSERT.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const COLUMNS = [
  { name: "Name", type: "short-text", isPrimary: true },
  { name: "Notes", type: "long-text" },
  { name: "Score", type: "number" },
];
const NOTES = [
  'a "quoted", \\N value',
  "tab\there",
  "two\nlines\r\n",
  "C:\\temp\\x",
  "É 漢字 🙂",
  "E\u0301T\u00c9",
  "",
];
const rows = Array.from({ length: 1_500 }, (_, i) => ({
  cells: { Name: `Row ${i}${i % 7 === 0 ? " \\ back" : ""}`, Notes: NOTES[i % NOTES.length], Score: String(i * 3) },
}));

async function stored(base: TestBase) {
  return app.rt.db.prisma.$queryRawUnsafe<{ values: Record<string, string>; search_text: string }[]>(
    `SELECT "values", search_text FROM rows WHERE sheet_id = $1 ORDER BY seq`,
    base.sheetId,
  );
}
const byName = (base: TestBase, values: Record<string, string>) =>
  Object.fromEntries(Object.entries(base.col).map(([name, id]) => [name, values[id]]));

it("stores and answers the same rows by COPY as by INSERT", async () => {
  const copied = await createBase(app, { columns: COLUMNS, name: "Copied" });
  const inserted = await createBase(app, { columns: COLUMNS, name: "Inserted" });
  const res = await app.api("POST", `/api/v1/bases/${copied.baseId}/add-rows`, { body: { rows } });
  expect(res.status, res.text).toBe(200);
  // The same runtime without COPY: the INSERT every Add Rows took before.
  const insertOnly = { ...app.rt, db: { prisma: app.rt.db.prisma } };
  const plain = await inTransaction(insertOnly, (w) => {
    expect(w.copyIn).toBeUndefined();
    return addRows(w, app.workspaceA, inserted.baseId, { rows }, app.rt.config.runs);
  });

  const cells = (r: { cells: Record<string, unknown> }) => r.cells;
  expect(res.body.rows.map(cells)).toEqual(plain.rows.map(cells));
  expect(res.body.rows.map((r: { cells: { Name: string } }) => r.cells.Name)).toEqual(rows.map((r) => r.cells.Name));
  const [a, b] = [await stored(copied), await stored(inserted)];
  expect(a.map((r) => byName(copied, r.values))).toEqual(b.map((r) => byName(inserted, r.values)));
  expect(a.map((r) => r.search_text.split("\x1f").sort())).toEqual(b.map((r) => r.search_text.split("\x1f").sort()));
  expect(a[5].search_text).toContain("été");
});
