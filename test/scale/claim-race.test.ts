import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { pgAdminUrl, skipMessage } from "./support.ts";
import pg from "pg";
import { claimJobs } from "../../lib/jobs/pgboss-claim.ts";
import type { CellJob } from "../../lib/jobs/types.ts";
import { renewLeases } from "../../lib/domain/cells/index.ts";
import { CELL_QUEUE, orphanedReadyCells } from "../../lib/jobs/pgboss-jobs.ts";

// Claims of pg-boss jobs run side by side, each in its own transaction on its own connection.
// Only a capped run's claims take turns (its room counts its running cells, which a concurrent
// claim's snapshot cannot see): racing claims must still take each cell once, never start more of a
// capped run's cells than its budget pays for, and leave every cell they did not take with a job.
// A worker's lease renewal runs beside its completion batches and must never wait on them.

skipMessage("concurrent claims suite");

const CLAIMERS = 8;
const ROWS = 40;

describe.skipIf(!pgAdminUrl)("concurrent claims of pg-boss jobs", () => {
  let app: TestApp;
  const sql = <T = unknown>(q: string, ...args: unknown[]) => app.rt.db.prisma.$queryRawUnsafe<T[]>(q, ...args);

  beforeAll(async () => {
    // No engine: the test's claims are the only ones (as many at once as the test pool has connections).
    app = await createTestApp({ AI_MODEL: "openai:fake" }, { queue: "pg-boss", credits: 100_000 });
  });
  afterAll(async () => {
    await app?.close();
  });

  async function queuedRun(name: string, maxCells?: number) {
    const { baseId } = await createBase(app, {
      name,
      columns: [
        { name: "Company", isPrimary: true },
        { name: "Industry", isAiEnabled: true, inputColumns: ["Company"], columnOptions: { autoRun: "never" } },
      ],
    });
    const added = await app.api("POST", `/api/v1/bases/${baseId}/add-rows`, {
      body: { rows: Array.from({ length: ROWS }, (_, i) => ({ cells: { Company: `${name} ${i}` } })) },
    });
    expect(added.status).toBe(200);
    const [{ cost }] = await sql<{ cost: number }>(`SELECT max(cell_cost)::int AS cost FROM runs`);
    const body = maxCells === undefined ? {} : { maxCredits: maxCells * Math.max(1, cost) };
    const run = await app.api("POST", `/api/v1/bases/${baseId}/run`, { body });
    expect(run.body.queued).toBe(ROWS);
    return run.body.runId as string;
  }

  /** Rounds of CLAIMERS claims at once until a round claims nothing; every cell claimed, by owner. */
  async function claimRace(runId: string) {
    const claimed: string[] = [];
    for (let round = 0; round < 10; round++) {
      const results = await Promise.all(
        Array.from({ length: CLAIMERS }, (_, i) =>
          claimJobs(app.rt.db.prisma, app.rt.queue.jobs!, `claimer-${round}-${i}`, 8, 60_000),
        ),
      );
      const taken = results.flatMap((r) => r.claimed.map((c) => `${c.rowId}:${c.columnId}`));
      claimed.push(...taken);
      const [{ running }] = await sql<{ running: number }>(
        `SELECT count(*)::int AS running FROM cells WHERE run_id = $1 AND status = 'running'`,
        runId,
      );
      expect(running).toBe(claimed.length);
      if (taken.length === 0 && results.every((r) => r.fetched === 0)) break;
      // Deferred jobs come back after half a second.
      if (taken.length === 0) await new Promise((r) => setTimeout(r, 600));
    }
    return claimed;
  }

  it("takes every cell of an uncapped run exactly once", { timeout: 60_000 }, async () => {
    const runId = await queuedRun("Open");
    const claimed = await claimRace(runId);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed).toHaveLength(ROWS);
  });

  it("claims exactly what a capped run's budget pays for, the rest kept in jobs", { timeout: 60_000 }, async () => {
    const runId = await queuedRun("Capped", 5);
    const claimed = await claimRace(runId);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed).toHaveLength(5);
    // Every pending cell of the run still has a live job: none was lost by a claim that left it.
    const orphans = await app.rt.db.prisma.$transaction((tx) => orphanedReadyCells(tx, 100));
    expect(orphans).toEqual([]);
    const [{ live }] = await sql<{ live: number }>(
      `SELECT count(*)::int AS live FROM pgboss.job WHERE name = $1 AND state <= 'active'`,
      CELL_QUEUE,
    );
    expect(live).toBe(ROWS - 5);
  });

  it("renews a worker's leases without waiting on a cell another transaction holds", { timeout: 60_000 }, async () => {
    const runId = await queuedRun("Leases");
    // The capped run's jobs left by the test before may come first: they are only put off again.
    const claimed: CellJob[] = [];
    for (let i = 0; i < 10 && claimed.length < 2; i++)
      claimed.push(...(await claimJobs(app.rt.db.prisma, app.rt.queue.jobs!, "renewer", 8, 60_000)).claimed);
    expect(claimed.length).toBeGreaterThan(1);
    const [held, ...free] = claimed;
    const leases = async () =>
      new Map(
        (
          await sql<{ key: string; until: Date }>(
            `SELECT row_id || ':' || column_id AS key, lease_until AS until FROM cells WHERE run_id = $1 AND status = 'running'`,
            runId,
          )
        ).map((r) => [r.key, new Date(r.until).getTime()]),
      );
    const before = await leases();
    // A completion batch storing `held`: its row stays locked until it commits.
    const batch = new pg.Client({
      connectionString: app.rt.config.databaseUrl ?? app.rt.db.pool!.options.connectionString,
    });
    await batch.connect();
    try {
      await batch.query("BEGIN");
      await batch.query(`SELECT 1 FROM cells WHERE row_id = $1 AND column_id = $2 FOR UPDATE`, [
        held.rowId,
        held.columnId,
      ]);
      const renewal = renewLeases(app.rt.db.prisma, "renewer", 600_000).then(() => "renewed");
      const outcome = await Promise.race([renewal, new Promise((r) => setTimeout(() => r("still waiting"), 10_000))]);
      expect(outcome).toBe("renewed");
    } finally {
      await batch.query("COMMIT");
      await batch.end();
    }
    const after = await leases();
    expect(after.get(`${held.rowId}:${held.columnId}`)).toBe(before.get(`${held.rowId}:${held.columnId}`));
    for (const c of free)
      expect(after.get(`${c.rowId}:${c.columnId}`)).toBeGreaterThan(before.get(`${c.rowId}:${c.columnId}`)!);
  });
});
