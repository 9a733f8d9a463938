import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import { createBase } from "../support/bases.ts";
import type { QueueEngineName } from "../../lib/jobs/queue-engine.ts";
import { addRowsRun, waitRun } from "./runs-helpers.ts";
import { expandedRows } from "./helpers.ts";

// A run condition naming an AI column waits for that column's cell on both queue engines: each
// decides readiness in its own statements (the embedded claim; pg-boss's ready rows and claims).

const engines: QueueEngineName[] = process.env.TEST_DATABASE_URL ? ["database", "pg-boss"] : ["database"];

describe.each(engines)("runIf dependencies on the %s queue", (queue) => {
  let llm: FakeLlm;
  let app: TestApp;
  beforeAll(async () => {
    llm = await startFakeLlm();
    app = await createTestApp(
      { OPENAI_BASE_URL: llm.baseUrl, AI_MODEL: "openai:test-model", AI_CONCURRENCY: "4", AI_RPM: "0" },
      { engine: true, queue },
    );
  });
  afterAll(async () => {
    await app.close();
    await llm.close();
  });

  it("runs a conditioned column only after the AI column it names, skipping rows that do not match", async () => {
    const { baseId } = await createBase(app, {
      columns: [
        { name: "Company", isPrimary: true },
        { name: "Tier", isAiEnabled: true, inputColumns: ["Company"], instructions: "A or B." },
        {
          name: "Deep",
          isAiEnabled: true,
          inputColumns: ["Company"],
          runIf: { not: { column: "Tier", op: "neq", value: "A" } },
        },
        // Runs when Tier failed: a condition may name the state of the cell it waited for.
        { name: "Fallback", isAiEnabled: true, inputColumns: ["Company"], runIf: { column: "Tier", status: "error" } },
      ],
    });
    llm.setHandler((req) => {
      const text = req.lastUserText;
      if (text.includes("Column to fill: Tier")) {
        if (text.includes("Broken")) return { status: 400, message: "no" };
        return { json: { value: text.includes("Big") ? "A" : "B", sources: [], confidenceScore: 1 }, delayMs: 200 };
      }
      return { json: { value: "ok", sources: [], confidenceScore: 1 } };
    });
    const rows = ["Big", "Small", "Broken"].map((Company) => ({ Company }));
    const { runId } = await addRowsRun(app, baseId, rows);
    const run = await waitRun(app, runId, (r) => r.status === "done", "the run to finish");
    expect(run.counts).toMatchObject({ pending: 0, running: 0, done: 4, error: 1, skipped: 4 });
    const [big, small, broken] = await expandedRows(app, baseId);
    expect([big, small, broken].map((r) => r.cells.Deep.status)).toEqual(["done", "skipped", "skipped"]);
    expect([big, small, broken].map((r) => r.cells.Fallback.status)).toEqual(["skipped", "skipped", "done"]);
    expect(llm.requests.filter((r) => r.lastUserText.includes("Column to fill: Deep"))).toHaveLength(1);
  });
});
