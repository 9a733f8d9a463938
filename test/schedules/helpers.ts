import { afterEach, expect } from "vitest";
import type { TestApp } from "../support/app.ts";
import { useEngineApp } from "../engine/helpers.ts";
import { startScheduler, type Scheduler } from "../../lib/engine/scheduler.ts";

// The schedule suites: an app with the engine on a fake LLM, and schedulers whose clock the test
// moves (no timers: each pass is the test's call), so no test waits for a tick in real time.

export const COLUMNS = [
  { name: "Company", type: "short-text", isPrimary: true },
  { name: "Industry", type: "short-text", isAiEnabled: true, inputColumns: ["Company"], instructions: "The industry." },
  { name: "Size", type: "short-text", isAiEnabled: true, inputColumns: ["Company"], instructions: "Employees." },
];

export const answer = (value: string, confidenceScore = 0.9, delayMs = 0) => ({
  json: { value, sources: [], confidenceScore },
  delayMs,
});

/** The suites' app; each test's schedules are disabled after it, so the next test's passes see only its own. */
export function useScheduleApp(env: Record<string, string> = {}) {
  const t = useEngineApp({ AI_CONCURRENCY: "8", ...env }, { credits: 100_000 });
  afterEach(async () => {
    await t.app.rt.db.prisma.schedule.updateMany({ data: { enabled: false } });
  });
  return t;
}

/** A clock a test sets and moves. */
export class TestClock {
  at: Date;
  constructor(at: Date) {
    this.at = at;
  }
  now = () => new Date(this.at);
  advance(ms: number) {
    this.at = new Date(this.at.getTime() + ms);
  }
}

export const HOUR = 3_600_000;

/** A scheduler on `clock`, without timers: the test calls pass(). */
export const schedulerOn = (app: TestApp, clock: TestClock): Scheduler =>
  startScheduler(app.rt, { now: clock.now, timers: false });

export async function createSchedule(app: TestApp, baseId: string, body: Record<string, unknown>, key?: string) {
  const res = await app.api("POST", `/api/v1/bases/${baseId}/schedules`, { body, key });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; nextRunAt: string; nextRunTimes: string[]; [k: string]: any };
}

/** Moves a schedule's next tick to `at` (as if it had been made long ago), so a test's clock can reach it. */
export async function setNextRun(app: TestApp, scheduleId: string, at: Date) {
  await app.rt.db.prisma.schedule.update({ where: { id: scheduleId }, data: { nextRunAt: at } });
}

export async function addRows(app: TestApp, baseId: string, companies: string[]) {
  const res = await app.api("POST", `/api/v1/bases/${baseId}/add-rows`, {
    body: { rows: companies.map((Company) => ({ cells: { Company } })) },
  });
  expect(res.status, res.text).toBe(200);
  return { runId: res.body.runId as string | null, rowIds: res.body.rows.map((r: { id: string }) => r.id) as string[] };
}

/** The runs a schedule started, oldest first. */
export const scheduledRuns = (app: TestApp, scheduleId: string) =>
  app.rt.db.prisma.run.findMany({ where: { scheduleId }, orderBy: { createdAt: "asc" } });

/** The cells a run queued, as "row:column" keys. */
export async function cellsOfRun(app: TestApp, runId: string): Promise<string[]> {
  const cells = await app.rt.db.prisma.cell.findMany({ where: { runId }, select: { rowId: true, columnId: true } });
  return cells.map((c) => `${c.rowId}:${c.columnId}`).sort();
}
