import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { waitFor } from "../support/wait.ts";
import { syncSheetIndexes } from "../../lib/db/sheet-indexes.ts";

// On PostgreSQL a new base's number and date columns get their indexes built CONCURRENTLY in the
// background, while the first Add Rows may already be writing. The build holds the table's
// ShareUpdateExclusive lock and waits for every transaction that was writing when it began; an
// Add Rows of 1,000 rows or more refreshes the statistics (ANALYZE) and asks for that same lock.
// Here that order is forced: a second connection holds the sheet's row, so the request stops in
// its INSERT (the foreign key's check) with the table already locked for writing; the build starts
// and waits for the request; once the build's one deadlock check has passed, the sheet is let go
// and the request reaches its ANALYZE. A waiting ANALYZE then closes the cycle, and PostgreSQL's
// deadlock detector aborts the request (as it did, answering 500).

const pgOnly = !!process.env.TEST_DATABASE_URL;
if (!pgOnly)
  console.log(
    "== index-build deadlock SKIPPED (PostgreSQL only): set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)",
  );

let app: TestApp;
let base: TestBase;
let holder: pg.Client;
let holderPid: number;
const ROWS = 1_500;

const one = async <T>(sql: string, ...params: unknown[]): Promise<T | undefined> =>
  (await app.rt.db.prisma.$queryRawUnsafe<T[]>(sql, ...params))[0];

describe.runIf(pgOnly)("an index build running while Add Rows writes into the new base", () => {
  beforeAll(async () => {
    // Every sheet gets its indexes, however small, so that the new base has them from the start.
    app = await createTestApp({ COLUMN_INDEX_MIN_ROWS: "0" });
    base = await createBase(app, {
      name: "B",
      columns: [
        { name: "Name", isPrimary: true },
        { name: "Email", type: "email" },
        { name: "Employees", type: "number" },
        { name: "Revenue", type: "number" },
        { name: "Founded", type: "date" },
      ],
    });
    // The creation's own builds first, so that the only build below is the one this test starts.
    await waitFor(async () => {
      const built = await one<{ valid: number; running: number }>(
        `SELECT (SELECT count(*)::int FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid WHERE x.indisvalid AND c.relname LIKE 'rows_by_%') AS valid,
                (SELECT count(*)::int FROM pg_stat_progress_create_index) AS running`,
      );
      return built && built.valid === 3 && built.running === 0;
    }, "the new base's indexes");
    holder = new pg.Client({
      connectionString: (app.rt.db.pool!.options as { connectionString: string }).connectionString,
    });
    await holder.connect();
    holderPid = (await holder.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0].pid;
  });
  afterAll(async () => {
    await holder?.end().catch(() => undefined);
    await app?.close();
  });

  it("Add Rows succeeds, writes every row, and the index is built", { timeout: 120_000 }, async () => {
    const index = `rows_by_${base.col.Employees}_number`.toLowerCase();
    await app.rt.db.prisma.$executeRawUnsafe(`DROP INDEX "${index}"`);
    await holder.query("BEGIN");
    await holder.query("SELECT 1 FROM sheets WHERE id = $1 FOR UPDATE", [base.sheetId]);

    const rows = Array.from({ length: ROWS }, (_, i) => ({
      cells: {
        Name: `Company ${i}`,
        Email: `p${i}@x.test`,
        Employees: String(i),
        Revenue: String(i * 10),
        Founded: "2020-01-01",
      },
    }));
    const added = app.api("POST", `/api/v1/bases/${base.baseId}/add-rows`, { body: { rows } });
    // The request writes: it holds rows for writing and waits for the held sheet.
    const writer = await waitFor(
      () =>
        one<{ pid: number }>(
          `SELECT l.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.relation = 'rows'::regclass AND l.mode = 'RowExclusiveLock' AND l.granted AND a.wait_event_type = 'Lock' AND l.pid <> $1`,
          holderPid,
        ),
      "Add Rows to wait in its INSERT",
    );

    const build = syncSheetIndexes(app.rt.db, base.baseId, 0).then(
      () => null,
      (e: unknown) => e,
    );
    // The build has the table and waits for the request's transaction to end.
    await waitFor(
      () =>
        one<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE query LIKE 'CREATE INDEX CONCURRENTLY%' AND wait_event_type = 'Lock' AND $1::int <> 0`,
          writer.pid,
        ),
      "the index build to wait for Add Rows",
    );
    // The build checks for a deadlock once, deadlock_timeout after it began to wait: there is no
    // cycle yet (the request waits for the holder, who waits for nobody), so it never checks again.
    const timeout = await one<{ ms: number }>(
      `SELECT setting::int AS ms FROM pg_settings WHERE name = 'deadlock_timeout'`,
    );
    await new Promise((r) => setTimeout(r, timeout!.ms * 2 + 500));
    await holder.query("COMMIT");

    const res = await added;
    expect(res.status, res.text).toBe(200);
    expect(await build).toBeNull();
    const counted = await one<{ n: number }>(`SELECT count(*)::int AS n FROM rows WHERE sheet_id = $1`, base.sheetId);
    expect(counted!.n).toBe(ROWS);
    const valid = await one<{ v: boolean }>(
      `SELECT x.indisvalid AS v FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid WHERE c.relname = $1`,
      index,
    );
    expect(valid?.v).toBe(true);
  });
});
