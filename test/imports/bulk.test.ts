import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { waitFor } from "../support/wait.ts";
import { startImportWorker } from "../../lib/imports/worker.ts";
import { runImport } from "../../lib/imports/job.ts";
import { claimImport } from "../../lib/imports/store.ts";
import { IMPORT_LIMITS } from "../../lib/imports/limits.ts";
import { upload } from "./helpers.ts";

// Imports that span several batches. On PostgreSQL new rows go in by COPY (rows/bulk.ts): the
// same file imported by COPY and by the INSERT path must give the same rows, values, order,
// counters and errors; and an import whose worker lost its lease between two batches resumes
// without a duplicate. On the embedded database both sides take the INSERT path.

const LINES = 21_000;
let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const COLUMNS = [
  { name: "Email", type: "email", isPrimary: true },
  { name: "Name", type: "short-text" },
  { name: "Score", type: "number" },
  { name: "Since", type: "date" },
  { name: "Active", type: "checkbox" },
  { name: "Tier", type: "select", columnOptions: { options: ["Gold"] } },
  { name: "Site", type: "url" },
  { name: "Notes", type: "long-text" },
];

// Text COPY must carry as it is: backslashes, tabs, quotes, newlines, non-ASCII characters.
const NOTES = ["plain", 'a "quoted", \\N value', "tab\there", "two\nlines", "C:\\temp\\x", "é 漢字 🙂", ""];
const name = (i: number) => `Name ${i}${i % 7 === 0 ? " \\ back" : ""}`;
const csvField = (v: string) => (/[",\n\t]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
function line(i: number): string {
  if (i % 5_000 === 17) return ",,,,,,,"; // no value at all: skipped, not an error
  const score = i % 1_000 === 3 ? "not a number" : String((i * 37) % 5_000);
  return [
    `P${i}@Example.test`,
    name(i),
    score,
    `${1980 + (i % 44)}-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`,
    i % 3 === 0 ? "yes" : "false",
    ["Gold", "Silver", "Bronze", ""][i % 4],
    i % 2 === 0 ? `https://site${i % 97}.test/` : "",
    NOTES[i % NOTES.length],
  ]
    .map(csvField)
    .join(",");
}
const CSV = `${COLUMNS.map((c) => c.name).join(",")}\n${Array.from({ length: LINES }, (_, i) => line(i)).join("\n")}\n`;

async function queued(base: TestBase): Promise<string> {
  const res = await upload(app, base.baseId, CSV);
  expect(res.status, res.text).toBe(202);
  return res.body.id;
}

const finished = (id: string) =>
  waitFor(
    async () => {
      const row = await app.rt.db.prisma.importJob.findUniqueOrThrow({ where: { id } });
      return row.status === "done" || row.status === "failed" ? row : null;
    },
    `import ${id} to end`,
    600_000,
    100,
  );

/** The sheet's rows in order, cells by column name, with what search matches. */
async function rowsOf(base: TestBase) {
  const names = new Map(Object.entries(base.col).map(([n, id]) => [id, n]));
  const rows = await app.rt.db.prisma.$queryRawUnsafe<{ values: Record<string, string>; search_text: string }[]>(
    `SELECT "values", search_text FROM rows WHERE sheet_id = $1 ORDER BY seq`,
    base.sheetId,
  );
  return rows.map((r) => ({
    cells: Object.fromEntries(Object.entries(r.values).map(([id, v]) => [names.get(id), v])),
    search: r.search_text,
  }));
}

const counters = (row: Awaited<ReturnType<typeof finished>>) => ({
  status: row.status,
  linesDone: row.linesDone,
  rowsRead: row.rowsRead,
  rowsCreated: row.rowsCreated,
  rowsUpdated: row.rowsUpdated,
  rowsSkipped: row.rowsSkipped,
  errors: row.errors,
});

it("writes the same rows, values, order, counters and errors as the INSERT path", { timeout: 900_000 }, async () => {
  expect(app.rt.db.copyIn !== undefined).toBe(app.rt.db.vendor === "postgres");
  const bulk = await createBase(app, { columns: COLUMNS, name: "Bulk" });
  const plain = await createBase(app, { columns: COLUMNS, name: "Plain" });

  const worker = await startImportWorker(app.rt, { pollMs: 50 });
  const bulkRow = await finished(await queued(bulk));
  await worker.stop();
  // The same runtime without COPY: the path every import took before.
  const insertOnly = { ...app.rt, db: { prisma: app.rt.db.prisma, exclusive: app.rt.db.exclusive } };
  const plainWorker = await startImportWorker(insertOnly, { pollMs: 50 });
  const plainRow = await finished(await queued(plain));
  await plainWorker.stop();

  const skipped = Array.from({ length: LINES }, (_, i) => i).filter((i) => i % 5_000 === 17 || i % 1_000 === 3);
  expect(counters(bulkRow)).toEqual(counters(plainRow));
  expect(bulkRow).toMatchObject({
    status: "done",
    linesDone: LINES,
    rowsCreated: LINES - skipped.length,
    rowsSkipped: skipped.length,
  });
  // The errors themselves (with their lines) are the INSERT path's, compared above.
  expect((bulkRow.errors as { column: string }[]).map((e) => e.column)).toEqual(
    skipped.filter((i) => i % 1_000 === 3).map(() => "Score"),
  );

  const got = await rowsOf(bulk);
  // The search text is generated from the values (in the order of their column ids, which differ).
  expect(got.map((r) => r.cells)).toEqual((await rowsOf(plain)).map((r) => r.cells));
  // Every row, in file order, against the file itself.
  const kept = Array.from({ length: LINES }, (_, i) => i).filter((i) => !skipped.includes(i));
  expect(got).toHaveLength(kept.length);
  kept.forEach((i, n) => {
    const cells = got[n].cells;
    expect(cells.Email).toBe(`P${i}@example.test`);
    expect(cells.Name).toBe(name(i));
    expect(cells.Score).toBe(String((i * 37) % 5_000));
    expect(cells.Notes).toBe(NOTES[i % NOTES.length] || undefined);
    expect(cells.Tier).toBe(["Gold", "Silver", "Bronze", ""][i % 4] || undefined);
    expect(got[n].search).toContain(`name ${i}`);
  });
  const options = (b: TestBase) =>
    app.api("GET", `/api/v1/bases/${b.baseId}/base-structure`).then((r) => r.body.sheetColumns[5].columnOptions);
  expect(await options(bulk)).toEqual(await options(plain));
});

it("resumes after a lost lease at the last committed batch, writing no line twice", { timeout: 900_000 }, async () => {
  const base = await createBase(app, { columns: COLUMNS, name: "Resumed" });
  const id = await queued(base);
  const batch = app.rt.db.copyIn ? IMPORT_LIMITS.bulkBatchLines : IMPORT_LIMITS.batchLines;

  // The first worker commits one batch, then stops between two batches as a stalled one would.
  const first = (await claimImport(app.rt.db.prisma, "first", 60_000))!;
  expect(first.id).toBe(id);
  let flushes = 0;
  await runImport(app.rt, first, "first", () => flushes++ >= 1);
  const stalled = await app.rt.db.prisma.importJob.findUniqueOrThrow({ where: { id } });
  expect(stalled).toMatchObject({ status: "running", linesDone: batch });
  const inBatch = (i: number) => i < batch && i % 5_000 !== 17 && i % 1_000 !== 3;
  const written = Array.from({ length: LINES }, (_, i) => i).filter(inBatch).length;
  expect(await app.rt.db.prisma.row.count({ where: { sheetId: base.sheetId } })).toBe(written);

  // Its lease runs out; another worker takes the import up where the batch ended.
  await app.rt.db.prisma.importJob.update({ where: { id }, data: { leaseUntil: null } });
  const second = (await claimImport(app.rt.db.prisma, "second", 60_000))!;
  expect(second.linesDone).toBe(batch);
  // The first worker wakes up: its lease is gone, so it stops at its next batch, writing nothing.
  await runImport(app.rt, stalled, "first");
  expect(await app.rt.db.prisma.row.count({ where: { sheetId: base.sheetId } })).toBe(written);
  await runImport(app.rt, second, "second");

  const done = await app.rt.db.prisma.importJob.findUniqueOrThrow({ where: { id } });
  const skipped = Array.from({ length: LINES }, (_, i) => i).filter((i) => i % 5_000 === 17 || i % 1_000 === 3);
  expect(done).toMatchObject({
    status: "done",
    linesDone: LINES,
    rowsRead: LINES,
    rowsCreated: LINES - skipped.length,
    rowsSkipped: skipped.length,
  });
  const rows = await rowsOf(base);
  const emails = rows.map((r) => r.cells.Email);
  expect(new Set(emails).size).toBe(LINES - skipped.length);
  expect(emails).toEqual(
    Array.from({ length: LINES }, (_, i) => i)
      .filter((i) => !skipped.includes(i))
      .map((i) => `P${i}@example.test`),
  );
});
