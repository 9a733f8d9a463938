import { describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { waitRun } from "../engine/runs-helpers.ts";
import {
  addRows,
  answer,
  COLUMNS,
  createSchedule,
  HOUR,
  schedulerOn,
  scheduledRuns,
  setNextRun,
  TestClock,
  useScheduleApp,
} from "./helpers.ts";

// Ticks on an injected clock: a due tick becomes one run; ticks missed while no process ran run
// once; a tick while the previous run is open is skipped and counted; maxCredits caps each
// execution; cron ticks follow the expression.

const t = useScheduleApp();

async function baseWithRows(n: number) {
  const base = await createBase(t.app, { columns: COLUMNS });
  t.llm.setHandler(() => answer("Rockets"));
  const added = await addRows(
    t.app,
    base.baseId,
    Array.from({ length: n }, (_, i) => `Company ${i}`),
  );
  await waitRun(t.app, added.runId!, (r) => r.status === "done", "the first run");
  return base;
}

describe("every", () => {
  it("runs a due tick once, moves to the next on its grid, and runs missed ticks once after downtime", async () => {
    const { baseId, col } = await baseWithRows(3);
    const s = await createSchedule(t.app, baseId, { every: "1h", columnIds: [col.Industry] });
    const due = new Date("2030-01-01T10:00:00Z");
    await setNextRun(t.app, s.id, due);
    const clock = new TestClock(new Date("2030-01-01T09:59:59Z"));
    const scheduler = schedulerOn(t.app, clock);
    expect(await scheduler.pass()).toEqual([]);

    clock.at = new Date("2030-01-01T10:00:00.200Z");
    const [tick] = await scheduler.pass();
    expect(tick.execution).toMatchObject({ outcome: "started", queued: 3 });
    expect(await scheduler.pass()).toEqual([]);
    let view = (await t.app.api("GET", `/api/v1/bases/${baseId}/schedules/${s.id}`)).body;
    expect(view).toMatchObject({ nextRunAt: "2030-01-01T11:00:00.000Z", lastStatus: "started" });
    const [run] = await scheduledRuns(t.app, s.id);
    expect(run).toMatchObject({ trigger: "schedule", scheduleId: s.id });
    await waitRun(t.app, run.id, (r) => r.status === "done", "the tick's run");

    // Down from 10:00 to 15:30: the ticks of 11:00 to 15:00 run once, and the grid holds.
    clock.at = new Date("2030-01-01T15:30:00Z");
    const late = await scheduler.pass();
    expect(late.map((r) => r.execution?.outcome)).toEqual(["started"]);
    expect(await scheduler.pass()).toEqual([]);
    view = (await t.app.api("GET", `/api/v1/bases/${baseId}/schedules/${s.id}`)).body;
    expect(view.nextRunAt).toBe("2030-01-01T16:00:00.000Z");
    expect(view.nextRunTimes).toEqual([
      "2030-01-01T16:00:00.000Z",
      "2030-01-01T17:00:00.000Z",
      "2030-01-01T18:00:00.000Z",
    ]);
    expect(await scheduledRuns(t.app, s.id)).toHaveLength(2);
    await scheduler.stop();
  });
});

describe("cron", () => {
  it("ticks at the expression's times in its time zone, and once after downtime", async () => {
    const { baseId, col } = await baseWithRows(1);
    const s = await createSchedule(t.app, baseId, { cron: "0 6 * * *", timezone: "Asia/Tokyo", columnIds: [col.Size] });
    await setNextRun(t.app, s.id, new Date("2030-01-01T21:00:00Z"));
    const clock = new TestClock(new Date("2030-01-04T02:00:00Z"));
    const scheduler = schedulerOn(t.app, clock);
    const ticks = await scheduler.pass();
    expect(ticks.map((r) => r.execution?.outcome)).toEqual(["started"]);
    const view = (await t.app.api("GET", `/api/v1/bases/${baseId}/schedules/${s.id}`)).body;
    // 06:00 in Tokyo is 21:00 UTC the day before.
    expect(view.nextRunAt).toBe("2030-01-04T21:00:00.000Z");
    const [run] = await scheduledRuns(t.app, s.id);
    await waitRun(t.app, run.id, (r) => r.status === "done", "the cron run");
    await scheduler.stop();
  });
});

describe("overlap", () => {
  it("skips a tick while the previous run is still running, counts it, and runs the next one after", async () => {
    const { baseId, col } = await baseWithRows(2);
    const s = await createSchedule(t.app, baseId, { every: "1h", columnIds: [col.Industry] });
    await setNextRun(t.app, s.id, new Date("2030-02-01T00:00:00Z"));
    const clock = new TestClock(new Date("2030-02-01T00:00:01Z"));
    const scheduler = schedulerOn(t.app, clock);
    t.llm.setHandler(() => answer("Slow", 0.9, 1_500));
    const [first] = await scheduler.pass();
    expect(first.execution?.outcome).toBe("started");
    clock.advance(HOUR);
    const [second] = await scheduler.pass();
    expect(second.execution).toMatchObject({ outcome: "skipped", runId: (first.execution as { runId: string }).runId });
    const view = (await t.app.api("GET", `/api/v1/bases/${baseId}/schedules/${s.id}`)).body;
    expect(view).toMatchObject({ lastStatus: "skipped", skippedCount: 1, lastSkippedAt: clock.now().toISOString() });
    expect(view.nextRunAt).toBe("2030-02-01T02:00:00.000Z");
    expect(await scheduledRuns(t.app, s.id)).toHaveLength(1);

    const [run] = await scheduledRuns(t.app, s.id);
    await waitRun(t.app, run.id, (r) => r.status === "done", "the slow run");
    clock.advance(HOUR);
    const [third] = await scheduler.pass();
    expect(third.execution?.outcome).toBe("started");
    expect(await scheduledRuns(t.app, s.id)).toHaveLength(2);
    await waitRun(t.app, (third.execution as { runId: string }).runId, (r) => r.status === "done", "the third run");
    await scheduler.stop();
  });

  it("also skips while the previous run is paused, until it is cancelled", async () => {
    const { baseId } = await baseWithRows(1);
    const s = await createSchedule(t.app, baseId, { every: "1h" });
    await setNextRun(t.app, s.id, new Date("2030-03-01T00:00:00Z"));
    const clock = new TestClock(new Date("2030-03-01T00:00:00Z"));
    const scheduler = schedulerOn(t.app, clock);
    t.llm.setHandler(() => answer("Slow", 0.9, 1_000));
    const [first] = await scheduler.pass();
    const runId = (first.execution as { runId: string }).runId;
    expect((await t.app.api("POST", `/api/v1/runs/${runId}/pause`)).status).toBe(200);
    clock.advance(HOUR);
    expect((await scheduler.pass())[0].execution?.outcome).toBe("skipped");
    expect((await t.app.api("POST", `/api/v1/runs/${runId}/cancel`)).status).toBe(200);
    clock.advance(HOUR);
    expect((await scheduler.pass())[0].execution?.outcome).toBe("started");
    await scheduler.stop();
  });
});

describe("budget", () => {
  it("caps each execution at maxCredits: the run pauses with pausedReason budget", async () => {
    const { baseId, col } = await baseWithRows(10);
    const s = await createSchedule(t.app, baseId, { every: "1d", columnIds: [col.Industry], maxCredits: 3 });
    await setNextRun(t.app, s.id, new Date("2030-04-01T00:00:00Z"));
    const scheduler = schedulerOn(t.app, new TestClock(new Date("2030-04-01T00:00:00Z")));
    t.llm.setHandler(() => answer("Rockets", 0.9, 20));
    const [tick] = await scheduler.pass();
    expect(tick.execution).toMatchObject({ outcome: "started", queued: 10 });
    const runId = (tick.execution as { runId: string }).runId;
    const paused = await waitRun(t.app, runId, (r) => r.status === "paused" && r.counts.running === 0, "the cap");
    expect(paused).toMatchObject({ pausedReason: "budget", creditsSpent: 3, maxCredits: 3 });
    expect(paused.counts.done).toBe(3);
    await scheduler.stop();
  });

  it("records a tick that cannot start (its column deleted) as an error and moves on", async () => {
    const { baseId, col } = await baseWithRows(1);
    const s = await createSchedule(t.app, baseId, { every: "1h", columnIds: [col.Size] });
    expect((await t.app.api("DELETE", `/api/v1/bases/${baseId}/columns/${col.Size}`)).status).toBe(200);
    await setNextRun(t.app, s.id, new Date("2030-05-01T00:00:00Z"));
    const scheduler = schedulerOn(t.app, new TestClock(new Date("2030-05-01T00:00:00Z")));
    const [tick] = await scheduler.pass();
    expect(tick.execution?.outcome).toBe("error");
    const view = (await t.app.api("GET", `/api/v1/bases/${baseId}/schedules/${s.id}`)).body;
    expect(view).toMatchObject({ lastStatus: "error", nextRunAt: "2030-05-01T01:00:00.000Z" });
    expect(view.lastError).toContain(col.Size);
    await scheduler.stop();
  });
});
