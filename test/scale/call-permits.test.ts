import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { waitFor } from "../support/wait.ts";
import { freshPostgres, pgAdminUrl, skipMessage } from "./support.ts";
import { createCallPermits, PERMIT_LOCKS, type CallPermits } from "../../lib/jobs/call-permits.ts";

// AI_CONCURRENCY across workers: call permits, one session-level advisory lock each, on a
// PostgreSQL database. Each holder below stands for one worker process.

skipMessage("call permits suite");

describe.skipIf(!pgAdminUrl)("call permits", () => {
  let db: { url: string; drop: () => Promise<void> };
  const holders: CallPermits[] = [];
  const holder = (cap: number) => {
    const p = createCallPermits(db.url, cap);
    holders.push(p);
    return p;
  };
  const lockHolders = async () => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const { rows } = await c.query<{ pid: number; n: number }>(
        `SELECT pid, count(*)::int AS n FROM pg_locks
         WHERE locktype = 'advisory' AND classid = $1 AND objsubid = 2 AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
         GROUP BY pid ORDER BY n DESC`,
        [PERMIT_LOCKS],
      );
      return rows;
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    db = await freshPostgres();
  });
  afterEach(async () => {
    for (const h of holders.splice(0)) await h.close();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("never grants more permits than the cap across holders, and a permit given back goes to another", async () => {
    const a = holder(3);
    const b = holder(3);
    expect(await a.want(() => 2)).toBe(2);
    expect(await b.want(() => 3)).toBe(1);
    expect(await a.want(() => 3)).toBe(2);
    expect((await lockHolders()).map((r) => r.n)).toEqual([2, 1]);
    expect(await a.want(() => 1)).toBe(1);
    expect(await b.want(() => 3)).toBe(2);
    // Asking for more while none is free takes nothing, not a second hold of its own (session
    // locks nest, and a nested one would outlive its release below).
    expect(await a.want(() => 3)).toBe(1);
    expect((await lockHolders()).map((r) => r.n)).toEqual([2, 1]);
    await a.want(() => 0);
    await b.want(() => 0);
    expect(await lockHolders()).toEqual([]);
  });

  it("frees a holder's permits the moment its session ends, and the holder starts again from none", async () => {
    const a = holder(2);
    const b = holder(2);
    expect(await a.want(() => 2)).toBe(2);
    expect(await b.want(() => 2)).toBe(0);
    const [{ pid }] = await lockHolders();
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await admin.query("SELECT pg_terminate_backend($1)", [pid]);
    await admin.end();
    await waitFor(() => a.held === 0, "the holder to notice its lost session");
    expect(await b.want(() => 2)).toBe(2);
    // A new session for the same holder: it takes what is free, which is nothing.
    expect(await a.want(() => 2)).toBe(0);
    await b.close();
    expect(await a.want(() => 2)).toBe(2);
  });

  it("holds nothing after close", async () => {
    const a = holder(4);
    expect(await a.want(() => 4)).toBe(4);
    await a.close();
    expect(a.held).toBe(0);
    expect(await a.want(() => 4)).toBe(0);
    expect(await lockHolders()).toEqual([]);
  });
});
