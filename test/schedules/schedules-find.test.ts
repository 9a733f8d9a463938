import { describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { meets, TARGET, TARGET_QUERY } from "../support/fake-world.ts";
import { worldModel } from "../support/world-model.ts";
import { addRows, expandedRows } from "../engine/helpers.ts";
import { waitRun } from "../engine/runs-helpers.ts";
import { candidates, stopped, useFindApp } from "../finds/helpers.ts";
import { processed, useRelayAndReceiver } from "../webhooks/helpers.ts";
import { createSchedule, schedulerOn, setNextRun, TestClock } from "./helpers.ts";

// A schedule of behavior find, end to end in the fake world: run now (trigger), then ticked on an
// injected clock. Each execution is a find that adds the rows it verifies, ends with a signed
// schedule.completed whose counts are the find's own, and never adds again an entity the base has.

const t = useFindApp();
const hooks = useRelayAndReceiver(() => t.app);
const CRITERIA = ["Based in Berlin", "Sells B2B", "Makes software", "50–200 employees"];
const COUNT = 2;
const VERIFIED = ["matched", "rejected", "unclear"];
const verifyCalls = () => t.llm.requests.filter((r) => r.system.startsWith("You check whether one")).length;

/** The find an execution started, once it has stopped, with its candidates and its finished run. */
async function execution(baseId: string, runId: string) {
  const list = await t.app.api("GET", `/api/v1/bases/${baseId}/finds`);
  expect(list.status, list.text).toBe(200);
  const started = (list.body.finds as { id: string; runId: string }[]).find((f) => f.runId === runId)!;
  const find = await stopped(t.app, baseId, started.id);
  const run = await waitRun(t.app, runId, (r) => r.status === "done", "the find's run", 60_000);
  return { find, run, seen: await candidates(t.app, baseId, started.id) };
}

/** The next schedule.completed delivery (the n-th), checked against the find it reports. */
async function completed(n: number, scheduleId: string, ex: Awaited<ReturnType<typeof execution>>) {
  const deliveries = await processed(hooks.receiver, n, 20_000);
  const delivery = deliveries[n - 1];
  expect(delivery.verified).toBe(true);
  const { verified, added, errors } = ex.find.candidates;
  expect(delivery.payload).toMatchObject({
    type: "schedule.completed",
    data: {
      schedule: { id: scheduleId, name: "Berlin leads", behavior: "find", skippedCount: 0 },
      runId: ex.run.id,
      counts: {
        checked: verified,
        changed: added,
        unchanged: verified - added,
        failed: errors,
        credits: ex.run.creditsSpent,
      },
      run: { id: ex.run.id, trigger: "schedule", scheduleId, status: "done" },
    },
  });
  expect(ex.run.creditsSpent).toBe(ex.find.credits.spent);
  expect(ex.run.creditsSpent).toBeGreaterThan(0);
  return delivery.payload.data.counts;
}

describe("a find schedule", () => {
  it("finds and adds rows, reports them in schedule.completed, and a second execution adds only new entities", async () => {
    t.llm.setHandler(worldModel());
    const { baseId } = await createBase(t.app, {
      columns: [
        { name: "Company", type: "short-text", isPrimary: true },
        { name: "Website", type: "url" },
      ],
    });
    const hook = await t.app.api("POST", "/api/v1/webhooks", {
      body: { url: hooks.receiver.url, events: ["schedule.completed"], baseId },
    });
    expect(hook.status, hook.text).toBe(201);
    hooks.receiver.setSecrets(hook.body.secret);
    const s = await createSchedule(t.app, baseId, {
      every: "1w",
      behavior: "find",
      name: "Berlin leads",
      find: { query: TARGET_QUERY, criteria: CRITERIA, count: COUNT },
    });
    expect(s).toMatchObject({ behavior: "find", find: { query: TARGET_QUERY, criteria: CRITERIA, count: COUNT } });

    // Run now.
    const res = await t.app.api("POST", `/api/v1/bases/${baseId}/schedules/${s.id}/trigger`);
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({ outcome: "started", run: { trigger: "schedule", scheduleId: s.id } });
    const first = await execution(baseId, res.body.run.id);
    expect(first.find).toMatchObject({ phase: "done", stopReason: "target", excludeExisting: true });
    expect(first.find.candidates.added).toBe(COUNT);
    const firstCounts = await completed(1, s.id, first);
    expect(firstCounts.changed).toBe(COUNT);
    expect(firstCounts.checked).toBeGreaterThanOrEqual(COUNT);

    const domainOf = (url: string) => new URL(url).hostname.replace(/^www\./, "");
    const byDomain = new Map(t.world.companies.map((c) => [c.domain, c]));
    const rowsAfterFirst = await expandedRows(t.app, baseId);
    expect(rowsAfterFirst).toHaveLength(COUNT);
    const firstDomains = rowsAfterFirst.map((r) => domainOf(r.cells.Website.value));
    for (const d of firstDomains) expect(meets(byDomain.get(d)!, TARGET)).toBe(true);
    const firstVerified = new Set(first.seen.filter((c) => VERIFIED.includes(c.status)).map((c) => c.key));

    // Meanwhile someone adds rows for the entities the first met but left unverified.
    const leftOver = first.seen.filter((c) => c.status === "pending");
    expect(leftOver.length).toBeGreaterThan(0);
    const byHand = leftOver.map((c) => ({ Company: c.name, Website: c.url }));
    expect((await addRows(t.app, baseId, byHand)).length).toBe(leftOver.length);

    // The next tick, on the schedule's clock: another find, which meets the same entities again.
    const due = new Date(s.nextRunAt);
    await setNextRun(t.app, s.id, due);
    const clock = new TestClock(new Date(due.getTime() + 1_000));
    const scheduler = schedulerOn(t.app, clock);
    const before = verifyCalls();
    const [tick] = await scheduler.pass();
    expect(tick.execution).toMatchObject({ outcome: "started" });
    const second = await execution(baseId, (tick.execution as { runId: string }).runId);
    expect(second.find.id).not.toBe(first.find.id);
    expect(second.find.candidates.added).toBe(COUNT);
    await completed(2, s.id, second);
    const view = (await t.app.api("GET", `/api/v1/bases/${baseId}/schedules/${s.id}`)).body;
    expect(view).toMatchObject({ lastRunId: second.run.id, lastStatus: "started" });
    expect(new Date(view.nextRunAt).getTime()).toBe(due.getTime() + 7 * 86_400_000);

    // The second read the pages of results the first read (and more), so it met the entities the
    // first added: they stay the first's candidates (one per entity in a base), added once. Nothing
    // the first verified was verified again.
    const pagesRead = (f: typeof first) => f.find.queries.find((q: { q: string }) => q.q === TARGET_QUERY)!.pagesRead;
    expect(pagesRead(first)).toBeGreaterThan(0);
    expect(pagesRead(second)).toBeGreaterThanOrEqual(pagesRead(first));
    const addedFirst = first.seen.filter((c) => c.rowId);
    expect(addedFirst.map((c) => c.key).sort()).toEqual(firstDomains.map((d) => `domain:${d}`).sort());
    const firstNow = await candidates(t.app, baseId, first.find.id);
    for (const c of addedFirst) expect(firstNow.find((x) => x.key === c.key)).toMatchObject({ rowId: c.rowId });
    expect(second.seen.filter((c) => addedFirst.some((a) => a.key === c.key))).toEqual([]);
    const secondVerified = second.seen.filter((c) => VERIFIED.includes(c.status));
    for (const c of secondVerified) expect(firstVerified.has(c.key), c.key).toBe(false);
    expect(verifyCalls() - before).toBe(second.find.candidates.verified);

    // What the base had when the second ran was met and left out, not added again.
    for (const c of leftOver)
      expect(second.seen.find((x) => x.key === c.key)?.status ?? "not met", c.key).toBe("excluded");

    // Every row a different entity: the first's, the hand-added ones, and the second's new ones.
    const rows = await expandedRows(t.app, baseId);
    expect(rows).toHaveLength(2 * COUNT + leftOver.length);
    const domains = rows.map((r) => domainOf(r.cells.Website.value));
    expect(new Set(domains).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.cells.Company.value)).size).toBe(rows.length);
    const found = rows.filter((r) => r.cells["Based in Berlin"]?.value === "yes");
    expect(found).toHaveLength(2 * COUNT);
    for (const r of found) expect(meets(byDomain.get(domainOf(r.cells.Website.value))!, TARGET)).toBe(true);
    expect(hooks.receiver.processed.size).toBe(2);
    await scheduler.stop();
  });
});
