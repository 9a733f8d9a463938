import { describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { expandedRows, settled, useEngineApp } from "./helpers.ts";
import { addRowsRun, cellCharges, rowsOf, waitRun } from "./runs-helpers.ts";

// Budgets (maxCredits), retrying only what failed, and re-running only what changed (input hashes).

const t = useEngineApp({ AI_CONCURRENCY: "16" }, { credits: 100_000 });

const columns = [
  { name: "Company", type: "short-text", isPrimary: true },
  { name: "Industry", type: "short-text", isAiEnabled: true, inputColumns: ["Company"], instructions: "The industry." },
];
const answer = (value: string, delayMs = 0) => ({ json: { value, sources: [], confidenceScore: 0.9 }, delayMs });

describe("budgets", () => {
  it("pauses exactly at maxCredits with concurrency 16, never over, and resumes only with a higher cap", async () => {
    const { baseId } = await createBase(t.app, { columns });
    await addRowsRun(t.app, baseId, [{ Company: "seed", Industry: "x" }]);
    const { rowIds } = await addRowsRun(
      t.app,
      baseId,
      rowsOf(60).map((r) => ({ ...r, Industry: "given" })),
    );
    expect(rowIds).toHaveLength(60);
    t.llm.setHandler(() => answer("Rockets", 30));
    const before = await cellCharges(t.app, t.app.workspaceA);
    const run = await t.app.api("POST", `/api/v1/bases/${baseId}/run`, { body: { maxCredits: 7 } });
    expect(run.body.queued).toBe(61);
    const runId = run.body.runId;
    const paused = await waitRun(
      t.app,
      runId,
      (r) => r.status === "paused" && r.counts.running === 0,
      "the budget pause",
    );
    expect(paused).toMatchObject({ pausedReason: "budget", creditsSpent: 7, maxCredits: 7 });
    expect(paused.counts.done).toBe(7);
    expect(await cellCharges(t.app, t.app.workspaceA)).toBe(before + 7);

    const refused = await t.app.api("POST", `/api/v1/runs/${runId}/resume`, { body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("run_budget_reached");
    const resumed = await t.app.api("POST", `/api/v1/runs/${runId}/resume`, { body: { maxCredits: 20 } });
    expect(resumed.body).toMatchObject({ status: "running", maxCredits: 20 });
    const again = await waitRun(
      t.app,
      runId,
      (r) => r.status === "paused" && r.counts.running === 0,
      "the second budget pause",
    );
    expect(again).toMatchObject({ creditsSpent: 20, pausedReason: "budget" });
    expect(again.counts.done).toBe(20);
    expect(await cellCharges(t.app, t.app.workspaceA)).toBe(before + 20);
    const lifted = await t.app.api("POST", `/api/v1/runs/${runId}/resume`, { body: { maxCredits: null } });
    expect(lifted.body.maxCredits).toBeNull();
    const done = await waitRun(t.app, runId, (r) => r.status === "done", "the run to finish without a cap");
    expect(done.counts.done).toBe(61);
  });
});

describe("retry only what failed", () => {
  it("statuses: [error, cancelled] runs exactly the failed cells again", async () => {
    const { baseId } = await createBase(t.app, { columns });
    t.llm.setHandler((req) => (req.lastUserText.includes("Bad") ? { status: 400, message: "nope" } : answer("Fine")));
    await addRowsRun(t.app, baseId, [
      { Company: "Good 1" },
      { Company: "Bad 1" },
      { Company: "Good 2" },
      { Company: "Bad 2" },
    ]);
    const first = await settled(t.app, baseId);
    expect(first.filter((r) => r.cells.Industry.status === "error")).toHaveLength(2);
    t.llm.reset();
    t.llm.setHandler(() => answer("Fixed"));
    const est = await t.app.api("POST", `/api/v1/bases/${baseId}/run/estimate`, {
      body: { statuses: ["error", "cancelled"] },
    });
    expect(est.body.cells).toBe(2);
    const run = await t.app.api("POST", `/api/v1/bases/${baseId}/run`, { body: { statuses: ["error", "cancelled"] } });
    expect(run.body.queued).toBe(2);
    await waitRun(t.app, run.body.runId, (r) => r.status === "done", "the retry run");
    expect(t.llm.totalRequests).toBe(2);
    const rows = await expandedRows(t.app, baseId);
    expect(rows.map((r) => r.cells.Industry.value)).toEqual(["Fine", "Fixed", "Fine", "Fixed"]);
  });
});

describe("re-run only what changed", () => {
  const withAutoRun = (autoRun: string) => [
    { name: "Company", type: "short-text", isPrimary: true },
    { name: "Notes", type: "short-text" },
    {
      name: "Industry",
      type: "short-text",
      isAiEnabled: true,
      inputColumns: ["Company"],
      instructions: "The industry.",
      columnOptions: { autoRun },
    },
  ];

  it("an identical update causes no model request; a changed input re-runs its dependent", async () => {
    const { baseId } = await createBase(t.app, { columns: withAutoRun("always") });
    const { rowIds } = await addRowsRun(t.app, baseId, [{ Company: "Acme" }, { Company: "Globex" }]);
    await settled(t.app, baseId);
    t.llm.reset();
    const same = await t.app.api("POST", `/api/v1/bases/${baseId}/update-rows`, {
      body: { rows: rowIds.map((id, i) => ({ id, cells: { Company: i === 0 ? "Acme" : "Globex", Notes: "n" } })) },
    });
    expect(same.body.runId).toBeNull();
    // A change and its undo in one request leave the hash as it was.
    const undo = await t.app.api("POST", `/api/v1/bases/${baseId}/update-rows`, {
      body: {
        rows: [
          { id: rowIds[0], cells: { Company: "Other" } },
          { id: rowIds[0], cells: { Company: "Acme" } },
        ],
      },
    });
    expect(undo.body.runId).toBeNull();
    expect(t.llm.totalRequests).toBe(0);
    const changed = await t.app.api("POST", `/api/v1/bases/${baseId}/update-rows`, {
      body: { rows: [{ id: rowIds[1], cells: { Company: "Initech" } }] },
    });
    expect(changed.body.runId).toMatch(/^run_/);
    await waitRun(t.app, changed.body.runId, (r) => r.status === "done", "the re-run");
    expect(t.llm.totalRequests).toBe(1);
  });

  it("with autoRun onInsert a changed hash marks the cell stale; the estimate counts it and onlyStale runs just it", async () => {
    const { baseId } = await createBase(t.app, { columns: withAutoRun("onInsert") });
    const { rowIds } = await addRowsRun(t.app, baseId, [{ Company: "Acme" }, { Company: "Globex" }]);
    await settled(t.app, baseId);
    t.llm.reset();
    const res = await t.app.api("POST", `/api/v1/bases/${baseId}/update-rows`, {
      body: { rows: [{ id: rowIds[0], cells: { Company: "Acme Corp" } }] },
    });
    expect(res.body.runId).toBeNull();
    const rows = await expandedRows(t.app, baseId);
    expect(rows[0].cells.Industry).toMatchObject({ status: "done", stale: true });
    expect(rows[1].cells.Industry.stale).toBeUndefined();
    const est = await t.app.api("POST", `/api/v1/bases/${baseId}/run/estimate`, { body: { onlyStale: true } });
    expect(est.body).toMatchObject({ cells: 1, stale: 1, unchanged: 1, skipped: 1 });
    const run = await t.app.api("POST", `/api/v1/bases/${baseId}/run`, { body: { onlyStale: true } });
    await waitRun(t.app, run.body.runId, (r) => r.status === "done", "the stale run");
    expect(t.llm.totalRequests).toBe(1);
  });

  it("a column rename or type change re-runs nothing and marks nothing stale; new instructions do", async () => {
    const { baseId, col } = await createBase(t.app, { columns: withAutoRun("always") });
    await addRowsRun(t.app, baseId, [{ Company: "Acme" }]);
    await settled(t.app, baseId);
    t.llm.reset();
    const patch = (body: unknown) => t.app.api("PATCH", `/api/v1/bases/${baseId}/columns/${col.Industry}`, { body });
    expect((await patch({ name: "Sector" })).status).toBe(200);
    expect((await patch({ type: "long-text" })).status).toBe(200);
    expect((await expandedRows(t.app, baseId))[0].cells.Sector.stale).toBeUndefined();
    expect((await patch({ instructions: "The sector, in one word." })).status).toBe(200);
    expect((await expandedRows(t.app, baseId))[0].cells.Sector.stale).toBe(true);
    expect(t.llm.totalRequests).toBe(0);
  });
});
