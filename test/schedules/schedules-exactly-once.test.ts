import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { TEST_SECRETS_KEY } from "../support/rate-limit-env.ts";
import { loadConfig } from "../../lib/config.ts";
import { createRuntime, stopRuntime, type Runtime } from "../../lib/runtime.ts";
import { startScheduler, type Scheduler, type TickRecord } from "../../lib/engine/scheduler.ts";
import { databaseUrlOf, pgAdminUrl } from "../scale/support.ts";
import { addRows, COLUMNS, createSchedule, HOUR, setNextRun, TestClock } from "./helpers.ts";

// Each tick runs exactly once however many schedulers see it. On PostgreSQL: two runtimes, each
// with its own pool, as two worker processes have; both claim the same due ticks at once. On the
// embedded database one process owns it, so two schedulers of that process race instead.

const ENV = { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", AI_MODEL: "openai:test-model" };
const SCHEDULES = 8;
const ROUNDS = 3;
let app: TestApp;
let second: Runtime | undefined;

beforeAll(async () => {
  app = await createTestApp(ENV, { credits: 100_000 });
  if (pgAdminUrl) {
    const config = loadConfig({ DATA_DIR: app.rt.config.dataDir, ...TEST_SECRETS_KEY, ...ENV });
    second = await createRuntime(config, {
      target: { kind: "postgres", url: await databaseUrlOf(app), poolSize: 5 },
      queue: "database",
    });
  }
});
afterAll(async () => {
  if (second) await stopRuntime(second);
  await app?.close();
});

describe(`exactly-once ticks (${process.env.TEST_DATABASE_URL ? "two runtimes on PostgreSQL" : "two schedulers on PGlite"})`, () => {
  it(`${SCHEDULES} schedules × ${ROUNDS} ticks: each tick claimed once, one run per tick, never a duplicate`, async () => {
    const { baseId, col } = await createBase(app, { columns: COLUMNS });
    await addRows(
      app,
      baseId,
      Array.from({ length: SCHEDULES }, (_, i) => `C${i}`),
    );
    // No engine runs here: the rows' cells stay pending; cancel them so the schedules' runs start.
    const first = await app.rt.db.prisma.run.findMany({ where: { baseId } });
    for (const r of first) await app.api("POST", `/api/v1/runs/${r.id}/cancel`);
    const due = new Date("2031-01-01T00:00:00Z");
    const ids: string[] = [];
    for (let i = 0; i < SCHEDULES; i++) {
      // One row each, so each tick of each schedule has a cell to run.
      const rows = { filter: { column: "Company", op: "eq", value: `C${i}` } };
      const s = await createSchedule(app, baseId, { every: "1h", columnIds: [col.Industry], rows, name: `S${i}` });
      await setNextRun(app, s.id, due);
      ids.push(s.id);
    }
    const clock = new TestClock(due);
    const schedulers: Scheduler[] = [
      startScheduler(app.rt, { now: clock.now, timers: false }),
      startScheduler(second ?? app.rt, { now: clock.now, timers: false }),
    ];
    const wonBy = [0, 0];
    for (let round = 0; round < ROUNDS; round++) {
      const results = await Promise.all(schedulers.map((s) => s.pass()));
      results.forEach((records, i) => (wonBy[i] += records.filter((r) => r.execution).length));
      const claimed = results
        .flat()
        .filter((r): r is TickRecord & { execution: { outcome: string; runId: string } } => Boolean(r.execution));
      expect(claimed.map((r) => r.scheduleId).sort()).toEqual([...ids].sort());
      expect(claimed.map((r) => r.execution.outcome)).toEqual(ids.map(() => "started"));
      expect(new Set(claimed.map((r) => r.execution.runId)).size).toBe(SCHEDULES);
      for (const r of claimed)
        expect((await app.api("POST", `/api/v1/runs/${r.execution.runId}/cancel`)).status).toBe(200);
      // Nothing is due any more until the clock reaches the next tick.
      expect((await Promise.all(schedulers.map((s) => s.pass()))).flat()).toEqual([]);
      clock.advance(HOUR);
    }
    const runs = await app.rt.db.prisma.run.groupBy({
      by: ["scheduleId"],
      where: { baseId, trigger: "schedule" },
      _count: true,
    });
    expect(runs.map((r) => [r.scheduleId, r._count]).sort()).toEqual(ids.map((id) => [id, ROUNDS]).sort());
    const left = await app.rt.db.prisma.schedule.findMany({ where: { id: { in: ids } } });
    for (const s of left) {
      expect(s.skippedCount).toBe(0);
      expect(s.nextRunAt?.toISOString()).toBe(new Date(due.getTime() + ROUNDS * HOUR).toISOString());
    }
    expect(wonBy[0] + wonBy[1]).toBe(SCHEDULES * ROUNDS);
    for (const s of schedulers) await s.stop();
  });
});
