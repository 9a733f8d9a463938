import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import { waitFor } from "../support/wait.ts";
import { createBase } from "../support/bases.ts";
import { addRows, settled } from "../engine/helpers.ts";
import { pgAdminUrl, skipMessage } from "./support.ts";
import { startEngine } from "../../lib/engine/engine.ts";
import { inTransaction } from "../../lib/db/work.ts";
import { addRows as addRowsDomain } from "../../lib/domain/rows/write.ts";
import { CELL_QUEUE } from "../../lib/jobs/pgboss-jobs.ts";
import { reconcile } from "../../lib/jobs/pgboss-reconciler.ts";

// The queue engine in one process, on PostgreSQL: transactional enqueue, the DAG, retries at
// their due time, the reconciler, and the global concurrency cap across two engines.

skipMessage("scale-out queue suite");

const chain = [
  { name: "Company", isPrimary: true },
  { name: "First", isAiEnabled: true, inputColumns: ["Company"] },
  { name: "Second", isAiEnabled: true, inputColumns: ["First"] },
];

describe.skipIf(!pgAdminUrl)("cells as pg-boss jobs", () => {
  let llm: FakeLlm;
  let app: TestApp;
  const jobs = (where = "true") =>
    app.rt.db.prisma.$queryRawUnsafe<{ key: string; state: string }[]>(
      `SELECT singleton_key AS key, state::text FROM pgboss.job WHERE name = $1 AND ${where} ORDER BY created_on`,
      CELL_QUEUE,
    );
  const sql = <T = unknown>(q: string, ...args: unknown[]) => app.rt.db.prisma.$queryRawUnsafe<T[]>(q, ...args);

  beforeAll(async () => {
    llm = await startFakeLlm({ latencyMs: 20 });
    app = await createTestApp(
      {
        OPENAI_BASE_URL: llm.baseUrl,
        AI_MODEL: "openai:fake",
        AI_CONCURRENCY: "3",
        WORKER_CONCURRENCY: "8",
        AI_RETRY_BASE_MS: "300",
        AI_LEASE_MS: "2000",
      },
      { queue: "pg-boss" },
    );
  });
  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  it("writes jobs in the transaction that makes cells pending, for ready cells only", async () => {
    const { baseId } = await createBase(app, { columns: chain, name: "Enqueue" });
    const rows = await addRows(app, baseId, [{ Company: "A" }, { Company: "B" }]);
    const keys = (await jobs()).map((j) => j.key);
    // First runs now; Second waits for First, so it has no job yet.
    const first = (await sql<{ id: string }>(`SELECT id FROM columns WHERE name = 'First'`)).map((c) => c.id);
    expect(keys.sort()).toEqual(rows.map((r) => `${r.id}/${first[0]}/1/0`).sort());

    // A transaction that fails leaves neither rows nor jobs.
    const before = (await jobs()).length;
    await expect(
      inTransaction(app.rt, async (w) => {
        await addRowsDomain(w, app.workspaceA, baseId, { rows: [{ cells: { Company: "C" } }] }, app.rt.config.runs);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await jobs()).toHaveLength(before);
  });

  it("runs the DAG to the end, each cell once, the global cap holding across two engines", async () => {
    await startEngine(app.rt);
    await startEngine(app.rt); // a second worker in the same process, sharing AI_CONCURRENCY=3
    const { baseId } = await createBase(app, { columns: chain, name: "Run" });
    await addRows(
      app,
      baseId,
      Array.from({ length: 30 }, (_, i) => ({ Company: `Company ${i}` })),
    );
    const done = await settled(app, baseId, 60_000);
    expect(done).toHaveLength(30);
    expect(done.flatMap((r) => [r.cells.First.status, r.cells.Second.status]).every((s) => s === "done")).toBe(true);
    for (const r of done) expect(r.cells.Second.value).toContain(JSON.stringify(r.cells.First.value).slice(1, -1));
    expect(llm.maxInFlight).toBeLessThanOrEqual(3);
    const charges = await sql<{ n: number; cells: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT (row_id, column_id))::int AS cells FROM credit_entries WHERE reason = 'cell_run' AND base_id = $1`,
      baseId,
    );
    expect(charges[0]).toEqual({ n: 60, cells: 60 });
    await waitFor(async () => (await jobs(`state < 'completed'`)).length === 0, "no queued job left", 10_000);
  });

  it("retries a rate-limited cell at its due time through a delayed job", async () => {
    llm.reset();
    llm.enqueue({ status: 429, retryAfterSeconds: 1 });
    const { baseId } = await createBase(app, { columns: chain.slice(0, 2), name: "Retry" });
    const t0 = Date.now();
    await addRows(app, baseId, [{ Company: "Slow" }]);
    const [row] = await settled(app, baseId, 20_000);
    expect(row.cells.First.status).toBe("done");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(llm.totalRequests).toBe(2);
  });

  it("the reconciler requeues orphaned cells and reclaims a dead worker's", async () => {
    const { baseId } = await createBase(app, { columns: chain.slice(0, 2), name: "Orphans" });
    // Rows written by a process without the queue engine (an import, a crash before enqueue).
    const writesJobs = app.rt.queue.reaction!;
    app.rt.reactions.splice(app.rt.reactions.indexOf(writesJobs), 1);
    try {
      await addRows(app, baseId, [{ Company: "X" }, { Company: "Y" }]);
    } finally {
      app.rt.reactions.push(writesJobs);
    }
    // And a cell a dead worker held: running under an expired lease.
    await sql(
      `UPDATE cells SET status = 'running', lease_owner = 'dead:1', lease_until = now() - interval '1 second'
       WHERE row_id = (SELECT c.row_id FROM cells c JOIN rows r ON r.id = c.row_id JOIN sheets s ON s.id = r.sheet_id
                       JOIN bases b ON b.id = s.base_id WHERE b.id = $1 ORDER BY r.seq LIMIT 1)`,
      baseId,
    );
    await reconcile(app.rt.db.prisma, app.rt.queue.jobs!, app.rt.config.ai.maxAttempts);
    const rows = await settled(app, baseId, 20_000);
    expect(rows.map((r) => r.cells.First.status)).toEqual(["done", "done"]);
    const attempts = await sql<{ attempts: number }>(
      `SELECT c.attempts FROM cells c JOIN rows r ON r.id = c.row_id JOIN sheets s ON s.id = r.sheet_id WHERE s.base_id = $1 ORDER BY r.seq`,
      baseId,
    );
    expect(attempts.map((a) => a.attempts)).toEqual([1, 0]);
  });

  it("reports the queue in the health check", async () => {
    const res = await app.api("GET", "/api/health", { key: null });
    expect(res.body).toMatchObject({ ok: true, vendor: "postgres", queue: { engine: "pg-boss", reachable: true } });
  });
});
