import { describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { waitRun } from "../engine/runs-helpers.ts";
import { processed, useRelayAndReceiver } from "../webhooks/helpers.ts";
import { scheduleCompletion } from "../../lib/domain/schedules/index.ts";
import { addRows, answer, cellsOfRun, COLUMNS, createSchedule, useScheduleApp } from "./helpers.ts";

// Which cells an execution queues, by each kind of row selection (verified cells left alone), and
// the signed schedule.completed webhook with its counts.

const t = useScheduleApp({ ALLOWED_PRIVATE_HOSTS: "127.0.0.1,::1" });
const hooks = useRelayAndReceiver(() => t.app);

/** A base of four companies whose Industry answers are done: Low* with confidence 0.3, the rest 0.9. */
async function answeredBase() {
  const base = await createBase(t.app, { columns: COLUMNS });
  t.llm.setHandler((req) => answer("Rockets", req.lastUserText.includes("Low") ? 0.3 : 0.9));
  const { runId, rowIds } = await addRows(t.app, base.baseId, ["Acme", "Low One", "Globex", "Low Two"]);
  await waitRun(t.app, runId!, (r) => r.status === "done", "the first run");
  return { ...base, rowIds };
}

async function trigger(baseId: string, body: Record<string, unknown>) {
  const s = await createSchedule(t.app, baseId, { every: "1d", ...body });
  const res = await t.app.api("POST", `/api/v1/bases/${baseId}/schedules/${s.id}/trigger`);
  expect(res.status, res.text).toBe(202);
  if (res.body.run) await waitRun(t.app, res.body.run.id, (r) => r.status === "done", "the scheduled run");
  return res.body as { outcome: string; queued: number; run: { id: string } | null };
}

const keys = (rowIds: string[], columnIds: string[]) => rowIds.flatMap((r) => columnIds.map((c) => `${r}:${c}`)).sort();

describe("row selections", () => {
  it("all, a filter, below a confidence and older than N days each queue exactly their cells", async () => {
    const { baseId, col, rowIds } = await answeredBase();
    const [acme, low1, globex, low2] = rowIds;
    // A verified cell is left alone, as POST /run leaves it.
    await t.app.rt.db.prisma.cell.update({
      where: { rowId_columnId: { rowId: globex, columnId: col.Industry } },
      data: { verified: true },
    });
    const all = await trigger(baseId, { rows: { all: true } });
    const everyCell = keys(rowIds, [col.Industry, col.Size]).filter((k) => k !== `${globex}:${col.Industry}`);
    expect(await cellsOfRun(t.app, all.run!.id)).toEqual(everyCell);

    const filtered = await trigger(baseId, {
      columnIds: [col.Industry],
      rows: { filter: { column: "Company", op: "startsWith", value: "low" } },
    });
    expect(await cellsOfRun(t.app, filtered.run!.id)).toEqual(keys([low1, low2], [col.Industry]));

    const unsure = await trigger(baseId, { columnIds: [col.Industry], rows: { belowConfidence: 0.5 } });
    expect(await cellsOfRun(t.app, unsure.run!.id)).toEqual(keys([low1, low2], [col.Industry]));

    // Acme's Size was last checked 40 days ago; every other cell today.
    await t.app.rt.db.prisma.$executeRawUnsafe(
      `UPDATE cells SET checked_at = now() - interval '40 days', finished_at = now() - interval '40 days'
       WHERE row_id = $1 AND column_id = $2`,
      acme,
      col.Size,
    );
    const old = await trigger(baseId, { rows: { olderThanDays: 30 } });
    expect(await cellsOfRun(t.app, old.run!.id)).toEqual([`${acme}:${col.Size}`]);
    const none = await trigger(baseId, { rows: { olderThanDays: 30 } });
    expect(none).toMatchObject({ outcome: "empty", run: null });
  });
});

describe("schedule.completed", () => {
  it("is delivered once, signed, with the schedule, its run and its counts", async () => {
    const { baseId, col } = await answeredBase();
    const hook = await t.app.api("POST", "/api/v1/webhooks", {
      body: { url: hooks.receiver.url, events: ["schedule.completed"], baseId },
    });
    expect(hook.status, hook.text).toBe(201);
    hooks.receiver.setSecrets(hook.body.secret);
    t.llm.setHandler((req) =>
      req.lastUserText.includes("Globex") ? { status: 400, message: "refused" } : answer("Rockets"),
    );
    const s = await createSchedule(t.app, baseId, { every: "1d", columnIds: [col.Industry], name: "Daily check" });
    const res = await t.app.api("POST", `/api/v1/bases/${baseId}/schedules/${s.id}/trigger`);
    const run = await waitRun(t.app, res.body.run.id, (r) => r.status === "done", "the scheduled run");
    const [delivery] = await processed(hooks.receiver, 1, 20_000);
    expect(delivery.verified).toBe(true);
    expect(delivery.payload).toMatchObject({
      type: "schedule.completed",
      data: {
        baseId,
        schedule: { id: s.id, name: "Daily check", behavior: "refresh", skippedCount: 0 },
        runId: run.id,
        counts: { checked: 3, changed: 0, unchanged: 3, failed: 1, credits: run.creditsSpent },
        run: { id: run.id, trigger: "schedule", scheduleId: s.id },
      },
    });
    // A plain run of the same base sends none.
    const plain = await t.app.api("POST", `/api/v1/bases/${baseId}/run`, { body: { columnIds: [col.Size] } });
    await waitRun(t.app, plain.body.runId, (r) => r.status === "done", "a plain run");
    await new Promise((r) => setTimeout(r, 300));
    expect(hooks.receiver.received.filter((d) => d.payload?.type === "schedule.completed")).toHaveLength(1);
  });

  it("counts as changed the checked cells whose answer changed since the run started", async () => {
    const { baseId, col, rowIds } = await answeredBase();
    const s = await createSchedule(t.app, baseId, { every: "1d", columnIds: [col.Industry] });
    const res = await t.app.api("POST", `/api/v1/bases/${baseId}/schedules/${s.id}/trigger`);
    const run = { ...(await waitRun(t.app, res.body.run.id, (r) => r.status === "done", "the run")), createdAt: "" };
    run.createdAt = res.body.run.createdAt;
    // Change detection (cell history) stamps changed_at when a stored answer differs from the one before.
    await t.app.rt.db.prisma.cell.updateMany({
      where: { rowId: { in: rowIds.slice(0, 2) }, columnId: col.Industry },
      data: { changedAt: new Date(Date.parse(run.createdAt) + 1) },
    });
    await t.app.rt.db.prisma.cell.update({
      where: { rowId_columnId: { rowId: rowIds[2], columnId: col.Industry } },
      data: { changedAt: new Date(Date.parse(run.createdAt) - 60_000) },
    });
    const completion = await scheduleCompletion(t.app.rt.db.prisma, {
      id: run.id,
      scheduleId: s.id,
      createdAt: run.createdAt,
      creditsSpent: run.creditsSpent,
    });
    expect(completion.counts).toEqual({ checked: 4, changed: 2, unchanged: 2, failed: 0, credits: 4 });
  });
});
