import { describe, expect, it } from "vitest";
import { waitFor } from "../support/wait.ts";
import {
  answerWith,
  app,
  columnPath,
  evaluatedAnswer,
  evaluation,
  firstAnswer,
  llm,
  useReviewedColumn,
} from "./reviewed-column.ts";

// An evaluation asks the model only for the rows its run's credit cap can pay for: the worker
// claims no more rows than the credits left cover, counting the rows already in flight, so a
// capped evaluation never pays a provider for answers it must throw away. The model calls are
// counted where they arrive, at the fake LLM.

const ROWS = 20;
// Time enough for several of the worker's polls (1 s) after the run paused.
const SETTLE_MS = 2_500;

useReviewedColumn({ AI_CONCURRENCY: "8", CREDITS_COST_CELL_RUN: "1" });

const evaluate = async (body: object) => {
  const res = await app.api("POST", `${columnPath()}/evaluate`, { body });
  expect(res.status, res.text).toBe(202);
  return res.body as { id: string; runId: string };
};
const paused = (id: string) =>
  waitFor(
    async () => ((await evaluation(id)).status === "paused" ? true : undefined),
    `evaluation ${id} to pause`,
    20_000,
  );
const cancel = (runId: string) => app.api("POST", `/api/v1/runs/${runId}/cancel`);

describe("an evaluation under a credit cap", () => {
  it('{"limit":20,"maxCredits":1} makes exactly one model call, charges 1 credit and discards nothing', async () => {
    llm.reset();
    const started = await evaluate({ limit: ROWS, maxCredits: 1 });
    await paused(started.id);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    expect(llm.totalRequests).toBe(1);
    const e = await evaluation(started.id);
    expect(e).toMatchObject({ status: "paused", creditsSpent: 1, counts: { done: 1 } });
    expect((await app.api("GET", `/api/v1/runs/${started.runId}`)).body.pausedReason).toBe("budget");
    await cancel(started.runId);
  });

  it("counts rows in flight: slow answers and room for three make three calls, then two more after a resume to 5", async () => {
    llm.reset();
    answerWith((req) => ({ ...evaluatedAnswer(req), delayMs: 400 }));
    try {
      const started = await evaluate({ limit: ROWS, maxCredits: 3 });
      await paused(started.id);
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      expect(llm.totalRequests).toBe(3);
      expect(llm.maxInFlight).toBeLessThanOrEqual(3);
      expect(await evaluation(started.id)).toMatchObject({ creditsSpent: 3, counts: { done: 3 } });

      expect((await app.api("POST", `/api/v1/runs/${started.runId}/resume`, { body: { maxCredits: 5 } })).status).toBe(
        200,
      );
      await waitFor(
        async () => ((await evaluation(started.id)).counts.done === 5 ? true : undefined),
        "two more rows",
        20_000,
      );
      await paused(started.id);
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      expect(llm.totalRequests).toBe(5);
      expect(await evaluation(started.id)).toMatchObject({ status: "paused", creditsSpent: 5, counts: { done: 5 } });
      await cancel(started.runId);
    } finally {
      answerWith(firstAnswer);
    }
  });

  it("without a cap, evaluates every row", async () => {
    llm.reset();
    const started = await evaluate({ limit: ROWS });
    await waitFor(
      async () => ((await evaluation(started.id)).status === "done" ? true : undefined),
      "the evaluation to finish",
      30_000,
    );
    expect(llm.totalRequests).toBe(ROWS);
    expect(await evaluation(started.id)).toMatchObject({ creditsSpent: ROWS, counts: { done: ROWS } });
  });
});
