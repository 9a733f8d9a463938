import { describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { waitRun } from "../engine/runs-helpers.ts";
import { addRows, answer, COLUMNS, createSchedule, useScheduleApp } from "./helpers.ts";

// The schedules API: validation (4xx with codes, nothing stored), cron in a time zone, every,
// PATCH, DELETE, trigger now, and workspace isolation.

const t = useScheduleApp();

describe("validation", () => {
  it("answers 400 with a code naming the field, and stores nothing", async () => {
    const { baseId, col } = await createBase(t.app, { columns: COLUMNS });
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ cron: "not a cron" }, "invalid_schedule", "cron"],
      [{ cron: "0 0 * * * *" }, "invalid_schedule", "cron"],
      [{ cron: "*/10 * * * *" }, "invalid_schedule", "cron"],
      [{ cron: "0 6 * * *", timezone: "Mars/Olympus" }, "invalid_schedule", "timezone"],
      [{ every: 60 }, "invalid_schedule", "every"],
      [{ every: "31d" }, "invalid_schedule", "every"],
      [{ every: "soon" }, "invalid_schedule", "every"],
      [{ cron: "0 6 * * *", every: "1d" }, "invalid_schedule", "every"],
      [{}, "invalid_schedule", "cron"],
      [{ every: "1d", columnIds: [col.Company] }, "invalid_schedule", "columnIds"],
      [{ every: "1d", behavior: "find" }, "invalid_schedule", "find"],
      [{ every: "1d", rows: { filter: { column: "Nope", op: "eq", value: "x" } } }, "unknown_column"],
      [{ every: "1d", rows: { filter: { and: [] } } }, "invalid_filter"],
      [{ every: "1d", rows: { olderThanDays: 0 } }, "validation_failed"],
      [{ every: "1d", rows: { all: true, belowConfidence: 0.5 } }, "validation_failed"],
      [{ every: "1d", maxCredits: 0 }, "validation_failed"],
    ];
    for (const [body, code, field] of cases) {
      const res = await t.app.api("POST", `/api/v1/bases/${baseId}/schedules`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code, JSON.stringify(body)).toBe(code);
      if (field) expect(res.body.error.details.field, JSON.stringify(body)).toBe(field);
    }
    expect(await t.app.rt.db.prisma.schedule.count({ where: { baseId } })).toBe(0);
  });
});

describe("cadence", () => {
  it("reads cron in its time zone, daylight saving time included, and lists the next three ticks", async () => {
    const { baseId } = await createBase(t.app, { columns: COLUMNS });
    const s = await createSchedule(t.app, baseId, { cron: "30 2 * * *", timezone: "Europe/Berlin", name: "Nightly" });
    expect(s).toMatchObject({ cron: "30 2 * * *", timezone: "Europe/Berlin", every: null, enabled: true });
    expect(s.nextRunTimes).toHaveLength(3);
    expect(s.nextRunTimes[0]).toBe(s.nextRunAt);
    for (const at of s.nextRunTimes) {
      const local = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", timeStyle: "short" }).format(
        new Date(at),
      );
      // 02:30 exists every night but the one the clocks go forward, when it runs at 03:00.
      expect(["02:30", "03:00"]).toContain(local);
    }
    const { checkCron, nextRunTimes } = await import("../../lib/domain/schedules/index.ts");
    const cadence = {
      cron: checkCron("30 2 * * *", "Europe/Berlin", new Date()),
      timezone: "Europe/Berlin",
      everySeconds: null,
    };
    const spring = nextRunTimes(cadence, new Date("2026-03-28T12:00:00Z"), 3).map((d) => d.toISOString());
    expect(spring).toEqual(["2026-03-29T01:00:00.000Z", "2026-03-30T00:30:00.000Z", "2026-03-31T00:30:00.000Z"]);
    const autumn = nextRunTimes(cadence, new Date("2026-10-24T12:00:00Z"), 2).map((d) => d.toISOString());
    expect(autumn).toEqual(["2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"]);
  });

  it("takes every as seconds or a duration, one interval from now, and PATCH swaps cron for every", async () => {
    const { baseId } = await createBase(t.app, { columns: COLUMNS });
    const before = Date.now();
    const s = await createSchedule(t.app, baseId, { every: "6h" });
    expect(s.every).toBe(21_600);
    const next = new Date(s.nextRunAt).getTime();
    expect(next).toBeGreaterThanOrEqual(before + 21_600_000);
    expect(next).toBeLessThan(Date.now() + 21_600_000 + 1);
    expect(s.nextRunTimes.map((x: string) => new Date(x).getTime() - next)).toEqual([0, 21_600_000, 43_200_000]);
    for (const [every, seconds] of [
      [3600, 3600],
      ["PT12H", 43_200],
      ["P1D", 86_400],
      ["2w", 1_209_600],
      ["90m", 5_400],
    ]) {
      const res = await t.app.api("PATCH", `/api/v1/bases/${baseId}/schedules/${s.id}`, { body: { every } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.every).toBe(seconds);
    }
    const cron = await t.app.api("PATCH", `/api/v1/bases/${baseId}/schedules/${s.id}`, {
      body: { cron: "0 9 * * 1", timezone: "America/New_York" },
    });
    expect(cron.body).toMatchObject({ cron: "0 9 * * 1", every: null, timezone: "America/New_York" });
    const off = await t.app.api("PATCH", `/api/v1/bases/${baseId}/schedules/${s.id}`, { body: { enabled: false } });
    expect(off.body).toMatchObject({ enabled: false, nextRunAt: null, nextRunTimes: [] });
    const bad = await t.app.api("PATCH", `/api/v1/bases/${baseId}/schedules/${s.id}`, {
      body: { timezone: "Nowhere" },
    });
    expect(bad.body.error).toMatchObject({ code: "invalid_schedule", details: { field: "timezone" } });
    const kept = await t.app.api("GET", `/api/v1/bases/${baseId}/schedules/${s.id}`);
    expect(kept.body).toMatchObject({ timezone: "America/New_York", enabled: false });
    const list = await t.app.api("GET", `/api/v1/bases/${baseId}/schedules`);
    expect(list.body.schedules.map((x: { id: string }) => x.id)).toEqual([s.id]);
    const del = await t.app.api("DELETE", `/api/v1/bases/${baseId}/schedules/${s.id}`);
    expect(del.body).toEqual({ id: s.id, deleted: true });
    expect((await t.app.api("GET", `/api/v1/bases/${baseId}/schedules/${s.id}`)).body.error.code).toBe(
      "schedule_not_found",
    );
  });
});

describe("trigger", () => {
  it("runs now as a run with trigger schedule, refuses while that run is open, and says empty when nothing matches", async () => {
    const { baseId, col } = await createBase(t.app, { columns: COLUMNS });
    t.llm.setHandler(() => answer("Rockets"));
    const empty = await createSchedule(t.app, baseId, { every: "1d", columnIds: [col.Industry] });
    const none = await t.app.api("POST", `/api/v1/bases/${baseId}/schedules/${empty.id}/trigger`);
    expect(none.status).toBe(202);
    expect(none.body).toMatchObject({ outcome: "empty", queued: 0, run: null, schedule: { lastStatus: "empty" } });

    const added = await addRows(t.app, baseId, ["Acme", "Globex"]);
    await waitRun(t.app, added.runId!, (r) => r.status === "done", "the rows' first run");
    t.llm.setHandler(() => answer("Rockets", 0.9, 400));
    const res = await t.app.api("POST", `/api/v1/bases/${baseId}/schedules/${empty.id}/trigger`);
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({
      outcome: "started",
      queued: 2,
      run: { trigger: "schedule", scheduleId: empty.id },
    });
    expect(res.body.schedule).toMatchObject({ lastRunId: res.body.run.id, lastStatus: "started" });
    expect(res.body.schedule.nextRunAt).toBe(empty.nextRunAt);
    const busy = await t.app.api("POST", `/api/v1/bases/${baseId}/schedules/${empty.id}/trigger`);
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatchObject({ code: "schedule_busy", details: { runId: res.body.run.id } });
    const done = await waitRun(t.app, res.body.run.id, (r) => r.status === "done", "the scheduled run");
    expect(done.counts.done).toBe(2);
    const again = await t.app.api("POST", `/api/v1/bases/${baseId}/schedules/${empty.id}/trigger`);
    expect(again.status).toBe(202);
    await waitRun(t.app, again.body.run.id, (r) => r.status === "done", "the second run");
  });
});

describe("isolation", () => {
  it("answers another workspace's schedule as missing, and a key without runs:write may only read", async () => {
    const { baseId } = await createBase(t.app, { columns: COLUMNS });
    const s = await createSchedule(t.app, baseId, { every: "1d" });
    const path = `/api/v1/bases/${baseId}/schedules/${s.id}`;
    for (const [method, p] of [
      ["GET", path],
      ["PATCH", path],
      ["DELETE", path],
      ["POST", `${path}/trigger`],
    ]) {
      const res = await t.app.api(method, p, { key: t.app.keyB, body: method === "PATCH" ? { name: "x" } : undefined });
      expect(res.status, `${method} ${p}`).toBe(404);
      expect(res.body.error.code).toBe("base_not_found");
    }
    const other = await createBase(t.app, { columns: COLUMNS, key: t.app.keyB });
    const wrongBase = await t.app.api("GET", `/api/v1/bases/${other.baseId}/schedules/${s.id}`, { key: t.app.keyB });
    expect(wrongBase.body.error.code).toBe("schedule_not_found");
    const key = await t.app.api("POST", "/api/v1/api-keys", { body: { name: "reader", scopes: ["rows:read"] } });
    expect(key.status, key.text).toBe(201);
    expect((await t.app.api("GET", path, { key: key.body.key })).status).toBe(200);
    const refused = await t.app.api("POST", `${path}/trigger`, { key: key.body.key });
    expect(refused.body.error.code).toBe("insufficient_scope");
    expect(await t.app.rt.db.prisma.schedule.count({ where: { baseId } })).toBe(1);
  });
});
