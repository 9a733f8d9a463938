import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { messages, PGlite } from "@electric-sql/pglite";
import { startEmbeddedThread } from "../../lib/db/embedded-thread.ts";

// The embedded database in its own thread: what crosses keeps PGlite's shapes (rows parsed by the
// caller's parsers, errors as PGlite's DatabaseError for the Prisma adapter's mapping, a
// transaction's statement refused once it was rolled back), the calling thread stays free while a
// statement runs, and closing ends a statement that will not finish, leaving a directory that opens
// again with what was committed.

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const panics: Error[] = [];
const open = (dir?: string) => startEmbeddedThread({ dir, onPanic: (e) => panics.push(e) });

describe("the embedded database's thread", () => {
  it("answers rows parsed as PGlite parses them, and with the caller's own parsers", async () => {
    const db = await open();
    try {
      const sql = `SELECT 1::int AS i, 'a'::text AS t, '{"k":[1]}'::jsonb AS j, ARRAY['x','y']::text[] AS a,
        ARRAY['{"v":2}']::jsonb[] AS ja, NULL::int AS n, 2::bigint AS b, 1.5::float8 AS f, true AS ok,
        '2026-01-02T03:04:05Z'::timestamptz AS at`;
      const { rows } = await db.statements.query<Record<string, unknown>>(sql);
      expect(rows[0]).toMatchObject({ i: 1, t: "a", j: { k: [1] }, a: ["x", "y"], ja: [{ v: 2 }], n: null, ok: true });
      const inProcess = new PGlite();
      try {
        expect(rows).toEqual((await inProcess.query(sql)).rows);
      } finally {
        await inProcess.close();
      }
      const asText = await db.statements.query("SELECT 7::int AS i", [], {
        rowMode: "array",
        parsers: { 23: (text: string) => `int ${text}` },
      });
      expect(asText.rows).toEqual([["int 7"]]);
      expect(db.alive()).toBe(true);
    } finally {
      await db.close();
    }
    expect(db.alive()).toBe(false);
  });

  it("fails a statement with PGlite's DatabaseError, its code and the statement", async () => {
    const db = await open();
    try {
      await db.statements.exec("CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t VALUES (1)");
      const e = await db.statements.query("INSERT INTO t VALUES ($1)", [1]).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(messages.DatabaseError);
      expect(e).toMatchObject({ code: "23505", severity: "ERROR", query: "INSERT INTO t VALUES ($1)", params: [1] });
      expect(await db.statements.query("SELECT count(*)::int AS n FROM t")).toMatchObject({ rows: [{ n: 1 }] });
    } finally {
      await db.close();
    }
  });

  it("refuses a transaction's statement sent after its rollback, and commits what the callback returns", async () => {
    const db = await open();
    try {
      await db.statements.exec("CREATE TABLE t (id int PRIMARY KEY)");
      let late: unknown;
      await db.statements.transaction(async (tx) => {
        await tx.query("INSERT INTO t VALUES (1)");
        const rollback = tx.rollback();
        late = await tx.query("INSERT INTO t VALUES (2)").catch((e: unknown) => e);
        await rollback;
      });
      expect((late as Error).message).toBe("Transaction is closed");
      const order: string[] = [];
      const inside = db.statements.transaction(async (tx) => {
        await tx.query("INSERT INTO t VALUES (3)");
        order.push("in");
        await tx.query("INSERT INTO t VALUES (4)");
        return "kept";
      });
      const outside = db.statements.query<{ n: number }>("SELECT count(*)::int AS n FROM t");
      expect(await inside).toBe("kept");
      order.push(`out ${(await outside).rows[0].n}`);
      expect(order).toEqual(["in", "out 2"]);
      await expect(
        db.statements.transaction(async (tx) => {
          await tx.query("INSERT INTO t VALUES (5)");
          throw new Error("the caller's own failure");
        }),
      ).rejects.toThrow("the caller's own failure");
      expect((await db.statements.query<{ id: number }>("SELECT id FROM t ORDER BY id")).rows).toEqual([
        { id: 3 },
        { id: 4 },
      ]);
    } finally {
      await db.close();
    }
  });

  it("keeps the calling thread free during a long statement, and closing ends it", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cw-thread-"));
    dirs.push(dir);
    const db = await open(path.join(dir, "pglite"));
    await db.statements.exec("CREATE TABLE kept (a int); INSERT INTO kept VALUES (7)");
    const long = db.statements.query("SELECT count(*) FROM generate_series(1, 200000000)").catch((e: Error) => e);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    await new Promise((r) => setTimeout(r, 1_000));
    clearInterval(ticker);
    expect(ticks).toBeGreaterThan(30); // about 100 on an idle machine; none if the statement held this thread
    const t0 = performance.now();
    expect(await db.close(500)).toBe(false);
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(await long).toBeInstanceOf(Error);
    expect(panics).toEqual([]);

    const again = await open(path.join(dir, "pglite"));
    try {
      expect((await again.statements.query("SELECT a FROM kept")).rows).toEqual([{ a: 7 }]);
    } finally {
      expect(await again.close()).toBe(true);
    }
  });
});
