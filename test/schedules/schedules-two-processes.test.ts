import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import { waitFor } from "../support/wait.ts";
import { waitRun } from "../engine/runs-helpers.ts";
import { databaseUrlOf, pgAdminUrl, skipMessage, startWorker, type WorkerProcess } from "../scale/support.ts";
import { addRows, COLUMNS, createSchedule, HOUR } from "./helpers.ts";

// Each tick runs exactly once across two `npm run worker` processes on one PostgreSQL, on the real
// clock: both schedulers see the same due ticks (woken together by the events bridge, or at their
// start), and each tick of each schedule becomes one run, again and again. After a downtime, the
// ticks missed run once, not once each. The test process runs no scheduler and no engine: every
// run here was started by a worker's scheduler, and its cells run on the workers.
// The embedded database belongs to one process, so there is nothing to spread across processes.

skipMessage("schedules across worker processes suite (the embedded database belongs to one process)");

const SCHEDULES = 8;
const MINUTE = 60_000;

describe.skipIf(!pgAdminUrl)("exactly-once ticks across two worker processes", () => {
  let llm: FakeLlm;
  let app: TestApp;
  let env: Record<string, string>;
  let workers: WorkerProcess[] = [];
  const ids: string[] = [];
  const startWorkers = async () => {
    // Together, so that both schedulers' first passes (at their start) race for the same ticks.
    workers = await Promise.all([startWorker(env), startWorker(env)]);
  };

  beforeAll(async () => {
    llm = await startFakeLlm();
    app = await createTestApp({}, { queue: "pg-boss", credits: 100_000 });
    env = {
      DATABASE_URL: await databaseUrlOf(app),
      OPENAI_BASE_URL: llm.baseUrl,
      AI_MODEL: "openai:test-model",
      WORKER_CONCURRENCY: "4",
      AI_CONCURRENCY: "8",
    };
    await startWorkers();
  }, 120_000);
  afterAll(async () => {
    for (const w of workers) await w.kill9();
    await app?.close();
    await llm?.close();
  });

  const prisma = () => app.rt.db.prisma;
  /** Moves every schedule's next tick to `dueAt`, in one statement, as if it had come due. */
  const dueAt = (at: Date) => prisma().schedule.updateMany({ where: { id: { in: ids } }, data: { nextRunAt: at } });

  /** Waits until each schedule's tick due at `due` is claimed and every run of the schedules has finished. */
  async function ticked(due: Date, runsEach: number) {
    const runs = await waitFor(
      async () => {
        const moved = await prisma().schedule.count({ where: { id: { in: ids }, nextRunAt: { gt: due } } });
        const all = await prisma().run.findMany({ where: { scheduleId: { in: ids } }, orderBy: { createdAt: "asc" } });
        const settled = all.length >= SCHEDULES * runsEach && all.every((r) => r.status !== "running");
        return moved === SCHEDULES && settled ? all : undefined;
      },
      `every schedule's tick of ${due.toISOString()} to run`,
      45_000,
      100,
    );
    const perSchedule = new Map(ids.map((id) => [id, runs.filter((r) => r.scheduleId === id)]));
    for (const [id, own] of perSchedule) {
      expect(own.length, `runs of schedule ${id}`).toBe(runsEach);
      for (const r of own) expect(r).toMatchObject({ trigger: "schedule", status: "done" });
    }
    return perSchedule;
  }

  /** Each schedule's next tick is `next`, its last run the newest, and no tick was skipped. */
  async function expectNext(next: Date, perSchedule: Map<string, { id: string }[]>) {
    const schedules = await prisma().schedule.findMany({ where: { id: { in: ids } } });
    for (const s of schedules)
      expect(s).toMatchObject({
        nextRunAt: next,
        lastStatus: "started",
        lastRunId: perSchedule.get(s.id)!.at(-1)!.id,
        skippedCount: 0,
      });
  }

  it(`${SCHEDULES} schedules: one run per schedule per tick over two rounds, and once after a downtime`, {
    timeout: 240_000,
  }, async () => {
    const { baseId, col } = await createBase(app, { columns: COLUMNS });
    const companies = Array.from({ length: SCHEDULES }, (_, i) => `C${i}`);
    const added = await addRows(app, baseId, companies);
    await waitRun(app, added.runId!, (r) => r.status === "done", "the workers to run the new rows", 60_000);
    for (const [i, company] of companies.entries()) {
      // One row each: each tick queues one cell, which a worker answers within moments.
      const rows = { filter: { column: "Company", op: "eq", value: company } };
      const s = await createSchedule(app, baseId, { every: "1h", columnIds: [col.Industry], rows, name: `S${i}` });
      expect(new Date(s.nextRunAt).getTime()).toBeGreaterThan(Date.now() + HOUR - MINUTE);
      ids.push(s.id);
    }
    const asked = llm.totalRequests;

    for (let round = 1; round <= 2; round++) {
      // Due a few minutes ago, a different instant each round; a web process that changes a
      // schedule wakes every process's scheduler (schedules.changed, over the events bridge).
      const due = new Date(Date.now() - (10 + round) * MINUTE);
      await dueAt(due);
      app.rt.bus.emit({ type: "schedules.changed" });
      const perSchedule = await ticked(due, round);
      // Moved on once, on its grid: the next tick after now, an hour after the one that ran.
      await expectNext(new Date(due.getTime() + HOUR), perSchedule);
      expect(llm.totalRequests - asked).toBe(SCHEDULES * round);
    }

    // Down for five hours and more: both workers stop; the ticks of the time they were down were all
    // missed. Two new workers, started at once, run each schedule's missed ticks as one run.
    for (const w of workers) expect(await w.stop()).toBe(0);
    const down = new Date(Date.now() - 5 * HOUR - 10 * MINUTE);
    await dueAt(down);
    await startWorkers();
    const perSchedule = await ticked(down, 3);
    await expectNext(new Date(down.getTime() + 6 * HOUR), perSchedule);
    expect(llm.totalRequests - asked).toBe(SCHEDULES * 3);

    // Nothing ran late: a while later, still three runs each, and nothing due.
    await new Promise((r) => setTimeout(r, 1_000));
    const late = await prisma().run.groupBy({ by: ["scheduleId"], where: { scheduleId: { in: ids } }, _count: true });
    expect(late.map((g) => [g.scheduleId, g._count]).sort()).toEqual(ids.map((id) => [id, 3]).sort());
    expect(await prisma().schedule.count({ where: { id: { in: ids }, nextRunAt: { lte: new Date() } } })).toBe(0);
    for (const w of workers) expect(await w.stop()).toBe(0);
    workers = [];
  });
});
