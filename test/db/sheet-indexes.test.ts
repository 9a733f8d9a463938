import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { waitFor } from "../support/wait.ts";
import { dateValue, numberValue, searchSql, Params } from "../../lib/domain/query/sql.ts";
import { searchIndexName, syncSheetIndexes, watchSheetIndexes } from "../../lib/db/sheet-indexes.ts";
import { EventBus } from "../../lib/events.ts";

// Number and date columns of a large sheet get a partial expression index each, and its search
// text a trigram index, built after the column is or the sheet grows; the expressions Query Rows
// writes are the ones indexed (the planner uses them when it may not scan). On PostgreSQL a base
// being imported into gets them when the import ends. Here a sheet is large from 100 rows.

let app: TestApp;
let base: TestBase;
let sheetId: string;

const indexes = async () =>
  (
    await app.rt.db.prisma.$queryRawUnsafe<{ indexname: string }[]>(
      `SELECT indexname FROM pg_indexes WHERE tablename = 'rows' AND indexname LIKE 'rows_by_%'`,
    )
  ).map((r) => r.indexname);
const named = (columnId: string, type: string) => `rows_by_${columnId}_${type}`.toLowerCase();

/**
 * The typed columns' indexes, once built: valid, and no build still running. On PostgreSQL they
 * are built CONCURRENTLY in the background, and an ANALYZE while one is running can deadlock with it.
 */
const builtIndexes = () =>
  waitFor(async () => {
    const want = [named(base.col.Employees, "number"), named(base.col.Founded, "date")];
    const [valid, building] = await Promise.all([
      app.rt.db.prisma.$queryRawUnsafe<{ indexname: string }[]>(
        `SELECT ic.relname AS indexname FROM pg_index x JOIN pg_class ic ON ic.oid = x.indexrelid WHERE x.indisvalid AND ic.relname LIKE 'rows_by_%'`,
      ),
      app.rt.db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM pg_stat_progress_create_index`),
    ]);
    const names = valid.map((r) => r.indexname);
    return building[0].n === 0 && want.every((n) => names.includes(n)) ? names : undefined;
  }, "the column indexes");

const MIN_ROWS = 100;

beforeAll(async () => {
  app = await createTestApp({ COLUMN_INDEX_MIN_ROWS: String(MIN_ROWS) });
  base = await createBase(app, {
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Employees", type: "number" },
      { name: "Founded", type: "date" },
      { name: "Notes", type: "long-text" },
    ],
  });
  const rows = Array.from({ length: 300 }, (_, i) => ({
    cells: { Company: `C${i}`, Employees: String(i), Founded: `20${String(i % 30).padStart(2, "0")}-01-01` },
  }));
  await app.api("POST", `/api/v1/bases/${base.baseId}/add-rows`, { body: { rows } });
  sheetId = (
    await app.rt.db.prisma.$queryRawUnsafe<{ id: string }[]>(`SELECT id FROM sheets WHERE base_id = $1`, base.baseId)
  )[0].id;
});
afterAll(() => app.close());

const allIndexes = async () =>
  (
    await app.rt.db.prisma.$queryRawUnsafe<{ indexname: string }[]>(
      `SELECT indexname FROM pg_indexes WHERE tablename = 'rows' AND indexname LIKE 'rows\\_%'`,
    )
  ).map((r) => r.indexname);

async function plan(sql: string, bitmaps = false, args: unknown[] = []): Promise<string> {
  return app.rt.db.prisma.$transaction(async (tx) => {
    // Whether the planner can use an index at all, not what it prefers on a 300-row table.
    await tx.$executeRawUnsafe(`SET LOCAL enable_seqscan = off`);
    await tx.$executeRawUnsafe(`SET LOCAL enable_sort = off`);
    // A GIN index is read by bitmap only; for the B-trees, an index scan is what shows the order.
    if (!bitmaps) await tx.$executeRawUnsafe(`SET LOCAL enable_bitmapscan = off`);
    else await tx.$executeRawUnsafe(`SET LOCAL enable_indexscan = off`);
    const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN ${sql}`, ...args);
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  });
}

describe("column expression indexes", () => {
  it("exist for number and date columns only", async () => {
    const found = await builtIndexes();
    expect(
      found.filter((n) => n.includes(base.col.Notes.toLowerCase()) || n.includes(base.col.Company.toLowerCase())),
    ).toEqual([]);
  });

  it("serve the filters and sorts Query Rows writes", async () => {
    await builtIndexes();
    await app.rt.db.prisma.$executeRawUnsafe(`ANALYZE rows`);
    const employees = { id: base.col.Employees };
    const founded = { id: base.col.Founded };
    const from = `FROM rows r WHERE r.sheet_id = '${sheetId}'`;
    expect(
      await plan(`SELECT r.id ${from} ORDER BY ${numberValue(employees)} ASC NULLS LAST, r.seq ASC LIMIT 10`),
    ).toContain(named(base.col.Employees, "number"));
    expect(await plan(`SELECT r.id ${from} AND ${numberValue(employees)} >= 250`)).toContain(
      named(base.col.Employees, "number"),
    );
    expect(
      await plan(
        `SELECT r.id ${from} AND ${dateValue(founded)} > '2028-06-01' ORDER BY ${dateValue(founded)} ASC NULLS LAST, r.seq ASC`,
      ),
    ).toContain(named(base.col.Founded, "date"));
  });

  it("include the large sheet's search index, which serves Query Rows' search", async () => {
    await builtIndexes();
    const name = searchIndexName(sheetId);
    await waitFor(async () => ((await allIndexes()).includes(name) ? true : undefined), "the search index");
    // As Query Rows sends it: the sheet and the term as parameters.
    const searchIn = (sheet: string) => {
      const p = new Params();
      return plan(
        `SELECT r.id FROM rows r WHERE r.sheet_id = ${p.add(sheet)} AND ${searchSql("c12", p)}`,
        true,
        p.values,
      );
    };
    expect(await searchIn(sheetId)).toContain(name);
    // Another sheet's search: the index's predicate excludes its rows, so the index is never read.
    expect(await searchIn("sheet_other")).not.toContain(name);
  });

  it("rebuild an index left invalid, as a concurrent build that lost a deadlock leaves it", async () => {
    const name = named(base.col.Employees, "number");
    const valid = async () =>
      (
        await app.rt.db.prisma.$queryRawUnsafe<{ v: boolean }[]>(
          `SELECT x.indisvalid AS v FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid WHERE c.relname = $1`,
          name,
        )
      )[0]?.v;
    await waitFor(async () => ((await valid()) ? true : undefined), "the index");
    await app.rt.db.prisma.$executeRawUnsafe(
      `UPDATE pg_index SET indisvalid = false WHERE indexrelid = '"${name}"'::regclass`,
    );
    expect(await valid()).toBe(false);
    await syncSheetIndexes(app.rt.db, base.baseId, MIN_ROWS);
    expect(await valid()).toBe(true);
  });

  it("follow a type change and a deletion", async () => {
    await app.api("PATCH", `/api/v1/bases/${base.baseId}/columns/${base.col.Founded}`, {
      body: { type: "short-text" },
    });
    await app.api("DELETE", `/api/v1/bases/${base.baseId}/columns/${base.col.Employees}`);
    await waitFor(
      async () =>
        (await indexes()).some(
          (n) => n.includes(base.col.Employees.toLowerCase()) || n.includes(base.col.Founded.toLowerCase()),
        )
          ? undefined
          : true,
      "the indexes to go",
    );
    const res = await app.api("POST", `/api/v1/bases/${base.baseId}/columns`, {
      body: { name: "Revenue", type: "number" },
    });
    await waitFor(
      async () => ((await indexes()).includes(named(res.body.id, "number")) ? true : undefined),
      "the new column's index",
    );
  });

  it("belong to large sheets only: built once a sheet holds 100 rows, dropped below 50", async () => {
    const small = await createBase(app, {
      columns: [
        { name: "Company", isPrimary: true },
        { name: "Employees", type: "number" },
      ],
    });
    const index = named(small.col.Employees, "number");
    const ids: string[] = [];
    const add = async (n: number) => {
      const rows = Array.from({ length: n }, (_, i) => ({ cells: { Company: `S${ids.length + i}`, Employees: "1" } }));
      const res = await app.api("POST", `/api/v1/bases/${small.baseId}/add-rows`, { body: { rows } });
      ids.push(...res.body.rows.map((r: { id: string }) => r.id));
    };
    const remove = (n: number) =>
      app.api("POST", `/api/v1/bases/${small.baseId}/delete-rows`, { body: { rowIds: ids.splice(0, n) } });

    await add(60);
    await syncSheetIndexes(app.rt.db, small.baseId, MIN_ROWS);
    expect(await indexes()).not.toContain(index);

    await add(50);
    await waitFor(async () => ((await indexes()).includes(index) ? true : undefined), "the grown sheet's index");

    // 110 → 60 rows: above half the threshold, the index stays.
    await remove(50);
    await syncSheetIndexes(app.rt.db, small.baseId, MIN_ROWS);
    expect(await indexes()).toContain(index);

    // 60 → 40 rows: below half, it goes.
    await remove(20);
    await waitFor(async () => ((await indexes()).includes(index) ? undefined : true), "the shrunk sheet's index to go");
  });
});

describe("the indexes of a base being imported into", () => {
  const sheetOf = async (baseId: string) =>
    (await app.rt.db.prisma.$queryRawUnsafe<{ id: string }[]>(`SELECT id FROM sheets WHERE base_id = $1`, baseId))[0]
      .id;
  /** Rows written behind the app's back: only the watcher under test hears of them. */
  const largeSheet = async (name: string) => {
    const b = await createBase(app, { name, columns: [{ name: "Company", isPrimary: true }] });
    const sheet = await sheetOf(b.baseId);
    await app.rt.db.prisma.$executeRawUnsafe(
      `INSERT INTO rows (id, sheet_id, "values") SELECT $1 || g, $1, jsonb_build_object('x', 'v' || g) FROM generate_series(1, 150) g`,
      sheet,
    );
    return { baseId: b.baseId, index: searchIndexName(sheet) };
  };

  it("are built when the import ends on PostgreSQL, and as the sheet grows on the embedded database", async () => {
    const imported = await largeSheet("Imported");
    const other = await largeSheet("Other");
    const bus = new EventBus();
    const watcher = watchSheetIndexes(app.rt.db, bus, MIN_ROWS);
    try {
      const event = { workspaceId: app.workspaceA, baseId: imported.baseId, importId: "imp_test", linesTotal: 150 };
      bus.emit({ type: "import.updated", ...event, status: "running", linesDone: 0 });
      bus.emit({
        type: "rows.changed",
        workspaceId: app.workspaceA,
        baseId: imported.baseId,
        rowIds: [],
        kind: "added",
      });
      bus.emit({ type: "rows.changed", workspaceId: app.workspaceA, baseId: other.baseId, rowIds: [], kind: "added" });
      // Bases are synced one at a time, in the order they were due: the other base's index
      // exists, so the imported base's sync has happened already, or was put off.
      await waitFor(async () => ((await allIndexes()).includes(other.index) ? true : undefined), "the other index");
      expect((await allIndexes()).includes(imported.index)).toBe(app.rt.db.exclusive);

      bus.emit({ type: "import.updated", ...event, status: "done", linesDone: 150 });
      await waitFor(
        async () => ((await allIndexes()).includes(imported.index) ? true : undefined),
        "the imported index",
      );
    } finally {
      await watcher.stop();
    }
  });

  it("go with their base", async () => {
    const gone = await largeSheet("Gone");
    await syncSheetIndexes(app.rt.db, gone.baseId, MIN_ROWS);
    expect(await allIndexes()).toContain(gone.index);
    await app.api("DELETE", `/api/v1/bases/${gone.baseId}`);
    await waitFor(async () => ((await allIndexes()).includes(gone.index) ? undefined : true), "the index to go");
  });
});
