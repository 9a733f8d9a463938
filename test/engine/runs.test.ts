import { describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { waitFor } from "../support/wait.ts";
import { expandedRows, useEngineApp } from "./helpers.ts";
import { addRowsRun, cellCharges, rowsOf, waitRun } from "./runs-helpers.ts";

// Runs as records, and their control: cancel, pause and resume, against the fake LLM with latency.

const t = useEngineApp({ AI_CONCURRENCY: "4" }, { credits: 100_000 });

const columns = [
  { name: "Company", type: "short-text", isPrimary: true },
  { name: "Industry", type: "short-text", isAiEnabled: true, inputColumns: ["Company"], instructions: "The industry." },
];
const slow = (ms: number) => () => ({ json: { value: "Rockets", sources: [], confidenceScore: 0.9 }, delayMs: ms });

describe("runs as records", () => {
  it("add-rows answers with a runId; the run counts its cells and ends done", async () => {
    const { baseId } = await createBase(t.app, { columns });
    const { runId } = await addRowsRun(t.app, baseId, rowsOf(3));
    expect(runId).toMatch(/^run_/);
    const done = await waitRun(t.app, runId, (r) => r.status === "done", "the run to finish");
    expect(done).toMatchObject({
      status: "done",
      counts: { pending: 0, running: 0, done: 3, error: 0, cancelled: 0 },
      creditsSpent: 3,
      maxCredits: null,
    });
    expect(done.finishedAt).not.toBeNull();
    const full = (await t.app.api("GET", `/api/v1/runs/${runId}`)).body;
    expect(full).toMatchObject({ id: runId, baseId, trigger: "add-rows", estimatedCredits: 3, pausedReason: null });
  });

  it("creates no run when nothing was queued, lists runs newest first, and hides them from other workspaces", async () => {
    const { baseId } = await createBase(t.app, { columns });
    const none = await t.app.api("POST", `/api/v1/bases/${baseId}/add-rows`, {
      body: { rows: [{ cells: { Company: "A", Industry: "Given" } }] },
    });
    expect(none.body.runId).toBeNull();
    const first = await addRowsRun(t.app, baseId, rowsOf(1));
    await waitRun(t.app, first.runId, (r) => r.status === "done", "the first run");
    const second = await t.app.api("POST", `/api/v1/bases/${baseId}/run`, { body: { columnIds: undefined } });
    expect(second.status).toBe(202);
    await waitRun(t.app, second.body.runId, (r) => r.status === "done", "the second run");
    const list = await t.app.api("GET", `/api/v1/bases/${baseId}/runs?limit=1`);
    expect(list.body.runs.map((r: { id: string }) => r.id)).toEqual([second.body.runId]);
    const next = await t.app.api("GET", `/api/v1/bases/${baseId}/runs?limit=1&cursor=${list.body.nextCursor}`);
    expect(next.body.runs.map((r: { id: string }) => r.id)).toEqual([first.runId]);
    expect((await t.app.api("GET", `/api/v1/runs/${first.runId}`, { key: t.app.keyB })).status).toBe(404);
    expect((await t.app.api("POST", `/api/v1/runs/${first.runId}/cancel`, { key: t.app.keyB })).body.error.code).toBe(
      "run_not_found",
    );
    expect((await t.app.api("POST", `/api/v1/runs/${first.runId}/pause`)).body.error.code).toBe("run_finished");
  });

  it("expanded rows say whether they are still processing", async () => {
    const { baseId } = await createBase(t.app, { columns });
    t.llm.setHandler(slow(300));
    const { rowIds } = await addRowsRun(t.app, baseId, rowsOf(1));
    const row = await t.app.api("GET", `/api/v1/bases/${baseId}/rows/${rowIds[0]}?expand=true`);
    expect(row.body.processing).toBe(true);
    const done = await waitFor(async () => {
      const r = await t.app.api("GET", `/api/v1/bases/${baseId}/rows/${rowIds[0]}?expand=true`);
      return r.body.processing === false ? r.body : undefined;
    }, "the row to stop processing");
    expect(done.cells.Industry.status).toBe("done");
  });
});

describe("control", () => {
  it("cancel: no model request of the run is in flight within 2 s, and cancelled cells are not charged", async () => {
    const { baseId } = await createBase(t.app, { columns });
    // Replies that would take a minute: calls gone within 30 s were aborted, however busy the machine.
    t.llm.setHandler(slow(60_000));
    const charges = await cellCharges(t.app, t.app.workspaceA);
    const { runId } = await addRowsRun(t.app, baseId, rowsOf(20));
    await waitFor(() => t.llm.inFlight === 4, "four model calls in flight");
    const res = await t.app.api("POST", `/api/v1/runs/${runId}/cancel`);
    const cancelledAt = Date.now();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "cancelled", counts: { pending: 0, running: 0, cancelled: 20 } });
    await waitFor(() => t.llm.inFlight === 0, "the model calls to be aborted", 30_000);
    expect(Date.now() - cancelledAt).toBeLessThan(30_000);
    const rows = await expandedRows(t.app, baseId);
    expect(rows).toHaveLength(20);
    for (const r of rows) expect(r.cells.Industry).toMatchObject({ status: "cancelled", error: { code: "cancelled" } });
    expect(t.llm.requests.length).toBeGreaterThan(0);
    expect(t.llm.requests.filter((r) => r.at > cancelledAt)).toEqual([]);
    expect(await cellCharges(t.app, t.app.workspaceA)).toBe(charges);
    // Cancelling again is a no-op.
    expect((await t.app.api("POST", `/api/v1/runs/${runId}/cancel`)).body.status).toBe("cancelled");
  });

  it("cancel keeps the value a cell had before its run, and the row still settles", async () => {
    const { baseId } = await createBase(t.app, { columns });
    const { rowIds, runId: first } = await addRowsRun(t.app, baseId, rowsOf(1));
    await waitRun(t.app, first, (r) => r.status === "done", "the first run");
    t.llm.setHandler(slow(5_000));
    const run = await t.app.api("POST", `/api/v1/bases/${baseId}/run`, { body: {} });
    await waitFor(() => t.llm.inFlight === 1, "the re-run in flight");
    await t.app.api("POST", `/api/v1/runs/${run.body.runId}/cancel`);
    const [row] = await expandedRows(t.app, baseId);
    expect(row.id).toBe(rowIds[0]);
    expect(row.cells.Industry).toMatchObject({ status: "cancelled", value: expect.stringMatching(/.+/) });
    expect((await t.app.api("GET", `/api/v1/bases/${baseId}/rows/${rowIds[0]}?expand=true`)).body.processing).toBe(
      false,
    );
  });

  it("pause lets the running cells finish and starts no more; resume continues to done", async () => {
    const { baseId } = await createBase(t.app, { columns });
    t.llm.setHandler(slow(300));
    const { runId } = await addRowsRun(t.app, baseId, rowsOf(16));
    await waitFor(() => t.llm.inFlight > 0, "a model call in flight");
    const paused = await t.app.api("POST", `/api/v1/runs/${runId}/pause`);
    expect(paused.body).toMatchObject({ status: "paused", pausedReason: "user" });
    const idle = await waitRun(t.app, runId, (r) => r.counts.running === 0, "the running cells to finish");
    expect(idle.status).toBe("paused");
    expect(idle.counts.pending).toBeGreaterThan(0);
    expect(t.llm.totalRequests).toBe(idle.counts.done);
    const resumed = await t.app.api("POST", `/api/v1/runs/${runId}/resume`, { body: {} });
    expect(resumed.body.status).toBe("running");
    const done = await waitRun(t.app, runId, (r) => r.status === "done", "the resumed run to finish");
    expect(done.counts).toMatchObject({ done: 16, pending: 0 });
    expect(t.llm.totalRequests).toBe(16);
  });
});
