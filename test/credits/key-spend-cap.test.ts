import { describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { useEngineApp } from "../engine/helpers.ts";
import { addRowsRun, getRun, rowsOf, waitRun, type Run } from "../engine/runs-helpers.ts";
import { waitFor } from "../support/wait.ts";

// A key's daily credit cap: requests that would queue more than the key has left are refused
// before anything is written (402), and concurrent runs started through the key are charged,
// together, never more than the cap: the runs that reach it pause with key_cap.

const t = useEngineApp({ AI_CONCURRENCY: "16" }, { credits: 100_000 });

const columns = [
  { name: "Company", type: "short-text", isPrimary: true },
  { name: "Industry", type: "short-text", isAiEnabled: true, inputColumns: ["Company"], instructions: "The industry." },
];
const answer = (value: string, delayMs = 0) => ({ json: { value, sources: [], confidenceScore: 0.9 }, delayMs });

async function keyWithCap(cap: number) {
  const res = await t.app.api("POST", "/api/v1/api-keys", {
    body: { name: `capped ${cap}`, scopes: ["rows:read", "rows:write", "runs:write"], dailyCreditCap: cap },
  });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id as string, key: res.body.key as string };
}

/** What credit entries charged to the key add up to. */
async function chargedTo(keyId: string) {
  const sum = await t.app.rt.db.prisma.creditEntry.aggregate({ where: { keyId }, _sum: { amount: true } });
  return -(sum._sum.amount ?? 0);
}

describe("a key's daily credit cap", () => {
  it("holds under concurrent runs: the runs pause with key_cap, a new run is refused, raising the cap resumes", async () => {
    const { baseId } = await createBase(t.app, { columns });
    // Rows whose AI cells are supplied, so nothing runs until the capped key asks.
    const { rowIds } = await addRowsRun(
      t.app,
      baseId,
      rowsOf(20).map((r) => ({ ...r, Industry: "given" })),
    );
    const capped = await keyWithCap(12);
    t.llm.setHandler(() => answer("Rockets", 25));

    // Four runs of five cells each, at once: each fits the cap alone (5 <= 12), together they do not.
    const starts = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        t.app.api("POST", `/api/v1/bases/${baseId}/run`, {
          key: capped.key,
          body: { rowIds: rowIds.slice(i * 5, i * 5 + 5), force: true },
        }),
      ),
    );
    for (const s of starts) expect(s.status, s.text).toBe(202);
    const runIds = starts.map((s) => s.body.runId as string);
    const stored = await t.app.rt.db.prisma.run.findMany({ where: { id: { in: runIds } } });
    expect(stored.every((r) => r.keyId === capped.id)).toBe(true);

    const settledRuns = await waitFor(
      async () => {
        const runs = await Promise.all(runIds.map((id) => getRun(t.app, id)));
        const quiet = runs.every((r) => r.counts.running === 0 && (r.status === "done" || r.status === "paused"));
        return quiet ? runs : undefined;
      },
      "every run to finish or pause",
      30_000,
    );
    expect(await chargedTo(capped.id)).toBe(12);
    const done = settledRuns.reduce((n, r) => n + r.counts.done, 0);
    expect(done).toBe(12);
    const paused = settledRuns.filter((r) => r.status === "paused");
    expect(paused.length).toBeGreaterThan(0);
    for (const r of paused) expect(r.pausedReason).toBe("key_cap");
    expect(settledRuns.reduce((n, r) => n + r.counts.pending, 0)).toBe(8);

    // The key view says what it spent; a new run is refused before anything is written.
    const view = (await t.app.api("GET", "/api/v1/api-keys")).body.apiKeys.find((k: any) => k.id === capped.id);
    expect(view).toMatchObject({ dailyCreditCap: 12, spentToday: 12 });
    const runsBefore = await t.app.rt.db.prisma.run.count();
    // A cell that is done: one still pending in a paused run is already queued, and queues nothing new.
    const doneCell = await t.app.rt.db.prisma.cell.findFirstOrThrow({
      where: { rowId: { in: rowIds }, status: "done" },
    });
    const refused = await t.app.api("POST", `/api/v1/bases/${baseId}/run`, {
      key: capped.key,
      body: { rowIds: [doneCell.rowId], force: true },
    });
    expect(refused.status, refused.text).toBe(402);
    expect(refused.body.error).toMatchObject({ code: "key_spend_cap_reached", details: { cap: 12, spentToday: 12 } });
    const addRefused = await t.app.api("POST", `/api/v1/bases/${baseId}/add-rows`, {
      key: capped.key,
      body: { rows: [{ cells: { Company: "New" } }] },
    });
    expect(addRefused.status).toBe(402);
    expect(await t.app.rt.db.prisma.run.count()).toBe(runsBefore);
    const resumeRefused = await t.app.api("POST", `/api/v1/runs/${paused[0].id}/resume`, {
      key: capped.key,
      body: {},
    });
    expect(resumeRefused.status).toBe(402);

    // Raised, the paused runs resume and finish: every cell charged once, 20 in all.
    const raised = await t.app.api("PATCH", `/api/v1/api-keys/${capped.id}`, { body: { dailyCreditCap: 100 } });
    expect(raised.body.dailyCreditCap).toBe(100);
    for (const r of paused) {
      const res = await t.app.api("POST", `/api/v1/runs/${r.id}/resume`, { key: capped.key, body: {} });
      expect(res.status, res.text).toBe(200);
    }
    for (const id of runIds) await waitRun(t.app, id, (r: Run) => r.status === "done", "each run to finish", 30_000);
    expect(await chargedTo(capped.id)).toBe(20);
  });

  it("a run whose cap fits the key's room starts even if its cells would not", async () => {
    const { baseId } = await createBase(t.app, { columns });
    const { rowIds } = await addRowsRun(
      t.app,
      baseId,
      rowsOf(6).map((r) => ({ ...r, Industry: "given" })),
    );
    const capped = await keyWithCap(3);
    t.llm.setHandler(() => answer("Fine"));
    const tooMuch = await t.app.api("POST", `/api/v1/bases/${baseId}/run`, {
      key: capped.key,
      body: { rowIds, force: true },
    });
    expect(tooMuch.status).toBe(402);
    const fits = await t.app.api("POST", `/api/v1/bases/${baseId}/run`, {
      key: capped.key,
      body: { rowIds, force: true, maxCredits: 3 },
    });
    expect(fits.status, fits.text).toBe(202);
    const run = await waitRun(
      t.app,
      fits.body.runId,
      (r) => r.status === "paused" && r.counts.running === 0,
      "the budget pause",
    );
    expect(run.counts.done).toBe(3);
    expect(await chargedTo(capped.id)).toBe(3);
  });

  it("AI Configure Base is refused past the key's cap before the model is called, and creates nothing", async () => {
    const res = await t.app.api("POST", "/api/v1/api-keys", {
      body: { name: "assistant", scopes: ["rows:read", "schema:write", "runs:write"], dailyCreditCap: 1 },
    });
    const basesBefore = await t.app.rt.db.prisma.base.count();
    const refused = await t.app.api("POST", "/api/v1/bases/ai-configure-base", {
      key: res.body.key,
      body: { baseName: "Leads", messages: [{ role: "user", content: "A table of companies." }] },
    });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: "key_spend_cap_reached", details: { cap: 1, spentToday: 0 } });
    expect(t.llm.totalRequests).toBe(0);
    expect(await t.app.rt.db.prisma.base.count()).toBe(basesBefore);
  });
});
