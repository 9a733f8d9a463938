import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import { createBase } from "../support/bases.ts";
import type { QueueEngineName } from "../../lib/jobs/queue-engine.ts";
import { addRowsRun, rowsOf, waitRun } from "./runs-helpers.ts";

// Fair scheduling: while a large run is in progress, a small one (of another workspace, or of
// the same one) finishes within 3x the time it takes on an idle server. The fake LLM answers
// with a fixed latency, so the model calls dominate the timings. On both queue engines.

const LATENCY_MS = 200;
const columns = [
  { name: "Company", isPrimary: true },
  { name: "Industry", isAiEnabled: true, inputColumns: ["Company"] },
];

const engines: QueueEngineName[] = process.env.TEST_DATABASE_URL ? ["database", "pg-boss"] : ["database"];

describe.each(engines)("fair claims on the %s queue", (queue) => {
  let llm: FakeLlm;
  let app: TestApp;

  beforeAll(async () => {
    llm = await startFakeLlm({ latencyMs: LATENCY_MS });
    app = await createTestApp(
      {
        OPENAI_BASE_URL: llm.baseUrl,
        AI_MODEL: "openai:test-model",
        AI_CONCURRENCY: "4",
        WORKER_CONCURRENCY: "4",
        AI_RPM: "0",
      },
      { engine: true, queue },
    );
  });
  afterAll(async () => {
    await app.close();
    await llm.close();
  });

  /** How long the 10-row add-rows of `key` takes until its run is done. */
  async function smallRun(baseId: string, key: string, prefix: string): Promise<number> {
    const t0 = Date.now();
    const { runId } = await addRowsRun(app, baseId, rowsOf(10, prefix), key);
    await waitRun(app, runId, (r) => r.status === "done", "the small run", 30_000, key);
    return Date.now() - t0;
  }

  it("a small run beside a large one of another workspace, and of the same workspace, takes at most 3x its idle time", async () => {
    const a = await createBase(app, { columns, key: app.keyA });
    const b = await createBase(app, { columns, key: app.keyB });
    const idle = await smallRun(b.baseId, app.keyB, "Idle");

    const large = await addRowsRun(app, a.baseId, rowsOf(1_000, "Large"), app.keyA);
    await waitRun(app, large.runId, (r) => r.counts.done >= 8, "the large run to be under way");
    const otherWorkspace = await smallRun(b.baseId, app.keyB, "Other");
    const sameWorkspace = await smallRun(a.baseId, app.keyA, "Same");
    const still = await waitRun(app, large.runId, () => true, "the large run");
    expect(still.status).toBe("running");
    expect(still.counts.pending).toBeGreaterThan(0);
    console.log(
      `[fairness ${queue}] idle ${idle} ms, beside another workspace's run ${otherWorkspace} ms, beside a run of its own workspace ${sameWorkspace} ms`,
    );
    expect(otherWorkspace).toBeLessThanOrEqual(3 * idle);
    expect(sameWorkspace).toBeLessThanOrEqual(3 * idle);
    await app.api("POST", `/api/v1/runs/${large.runId}/cancel`, { key: app.keyA });
  });
});
