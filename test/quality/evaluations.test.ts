import { describe, expect, it } from "vitest";
import { addRows, expandedRows, settled } from "../engine/helpers.ts";
import { createBase } from "../support/bases.ts";
import { waitFor } from "../support/wait.ts";
import {
  answerWith,
  app,
  base,
  columnPath,
  company,
  evaluatedAnswer,
  evaluation,
  finished,
  firstAnswer,
  index,
  llm,
  rowOf,
  truth,
  useReviewedColumn,
} from "./reviewed-column.ts";

// An evaluation regenerates the reviewed column (reviewed-column.ts) blind with other instructions
// and model, never shows a row its own label, never touches the base, and can be applied,
// cancelled and capped.

useReviewedColumn();

describe("evaluations", () => {
  let evaluationId: string;

  it("regenerates blind with the overrides, compares, and leaves the base alone", async () => {
    const before = JSON.stringify(await expandedRows(app, base.baseId));
    answerWith((req) => (req.model === "other-model" ? evaluatedAnswer(req) : firstAnswer(req)));
    llm.reset();
    const body = { instructions: "Name the sector precisely.", model: "openai:other-model" };
    const estimate = await app.api("POST", `${columnPath()}/evaluate/estimate`, { body });
    expect(estimate.body).toEqual({ rows: 40, estimatedCredits: 40 });
    const started = await app.api("POST", `${columnPath()}/evaluate`, { body });
    expect(started.status, started.text).toBe(202);
    expect(started.body).toMatchObject({
      id: expect.stringMatching(/^eval_/),
      runId: expect.stringMatching(/^run_/),
      rows: 40,
      estimatedCredits: 40,
    });
    evaluationId = started.body.id;

    const e = await finished(evaluationId);
    expect(e).toMatchObject({
      status: "done",
      counts: { rows: 40, pending: 0, running: 0, done: 40, error: 0, cancelled: 0, correct: 30, incorrect: 10 },
      accuracy: 0.75,
      previousAccuracy: 0.6,
      creditsSpent: 40,
      settings: {
        instructions: "Name the sector precisely.",
        model: "openai:other-model",
        tools: [],
        judgeModel: null,
        changed: ["instructions", "model"],
      },
      byConfidence: [{ from: 0.9, to: 1, cells: 40, agreement: 0.75, confidence: 0.9 }],
      // |0.75 − 0.9|
      expectedCalibrationError: 0.15,
    });
    const c35 = e.results.find((r: { rowId: string }) => r.rowId === rowOf.C35);
    expect(c35).toEqual({
      rowId: rowOf.C35,
      status: "done",
      expected: truth(35),
      got: "Still wrong 35",
      correct: false,
      confidence: 0.9,
      reason: null,
      previous: { value: "Wrong 35", correct: false },
    });
    const run = (await app.api("GET", `/api/v1/runs/${e.runId}`)).body;
    expect(run).toMatchObject({ trigger: "evaluation", status: "done", counts: { done: 40 }, creditsSpent: 40 });

    // The overrides reached the model; no row saw its own label, though other rows' labels guided it.
    const asked = llm.requests.filter((r) => r.model === "other-model");
    expect(asked).toHaveLength(40);
    for (const r of asked) {
      expect(r.lastUserText).toContain("Name the sector precisely.");
      expect(r.lastUserText).not.toContain(truth(index(r)));
    }
    expect(asked.some((r) => r.lastUserText.includes("verified examples"))).toBe(true);
    expect(JSON.stringify(await expandedRows(app, base.baseId))).toBe(before);
  });

  it("lists the column's evaluations and applies one to the column", async () => {
    const list = (await app.api("GET", `${columnPath()}/evaluations`)).body.evaluations;
    expect(list.map((e: { id: string }) => e.id)).toContain(evaluationId);
    expect(list[0]).not.toHaveProperty("results");
    const applied = await app.api("POST", `${columnPath()}/evaluations/${evaluationId}/apply`);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.column).toMatchObject({
      instructions: "Name the sector precisely.",
      columnOptions: { model: "openai:other-model" },
    });
    expect(applied.body.evaluation.appliedAt).toEqual(expect.any(String));
    const structure = (await app.api("GET", `/api/v1/bases/${base.baseId}/base-structure`)).body;
    expect(JSON.stringify(structure)).toContain("Name the sector precisely.");
  });

  it("is a run: capped by maxCredits, resumed, and cancelled", async () => {
    answerWith((req) => ({ ...evaluatedAnswer(req), delayMs: 300 }));
    const started = (await app.api("POST", `${columnPath()}/evaluate`, { body: { maxCredits: 3 } })).body;
    const paused = await finished(started.id, ["paused"]);
    expect(paused).toMatchObject({ creditsSpent: 3, counts: { done: 3 } });
    expect((await app.api("GET", `/api/v1/runs/${started.runId}`)).body.pausedReason).toBe("budget");

    const resumed = await app.api("POST", `/api/v1/runs/${started.runId}/resume`, { body: { maxCredits: 5 } });
    expect(resumed.status).toBe(200);
    expect(await finished(started.id, ["paused"])).toMatchObject({ creditsSpent: 5, counts: { done: 5 } });

    await app.api("POST", `/api/v1/runs/${started.runId}/resume`, { body: { maxCredits: null } });
    await waitFor(
      async () => ((await evaluation(started.id)).counts.done >= 7 ? true : undefined),
      "more rows",
      20_000,
    );
    const cancelled = await app.api("POST", `/api/v1/runs/${started.runId}/cancel`);
    expect(cancelled.body.status).toBe("cancelled");
    const after = await evaluation(started.id);
    await new Promise((r) => setTimeout(r, 800));
    const later = await evaluation(started.id);
    expect(later.status).toBe("cancelled");
    expect(later.counts.cancelled).toBeGreaterThan(0);
    expect(later.counts.done).toBe(after.counts.done);
    expect(later.creditsSpent).toBe(after.creditsSpent);
    expect(later.creditsSpent).toBe(later.counts.done);
    expect((await app.api("POST", `${columnPath()}/evaluations/${started.id}/apply`)).body.error.code).toBe(
      "evaluation_not_finished",
    );
  });

  it("aborts its rows' model calls when it is cancelled, charging none of them", async () => {
    // Replies that would take a minute: calls gone within 30 s were aborted, however busy the machine.
    answerWith((req) => (req.model === "slow-model" ? { ...evaluatedAnswer(req), delayMs: 60_000 } : firstAnswer(req)));
    const started = (
      await app.api("POST", `${columnPath()}/evaluate`, { body: { model: "openai:slow-model", limit: 8 } })
    ).body;
    await waitFor(() => (llm.inFlight > 0 ? true : undefined), "rows in flight", 10_000);
    const cancelledAt = Date.now();
    expect((await app.api("POST", `/api/v1/runs/${started.runId}/cancel`)).body.status).toBe("cancelled");
    await waitFor(() => (llm.inFlight === 0 ? true : undefined), "the model calls to be aborted", 30_000);
    expect(Date.now() - cancelledAt).toBeLessThan(30_000);
    const e = await evaluation(started.id);
    expect(e).toMatchObject({ status: "cancelled", creditsSpent: 0, counts: { done: 0, cancelled: 8 } });
  });

  it("has long text judged by the judge model, with its reason stored", async () => {
    const notes = await createBase(app, {
      columns: [
        { name: "Company", isPrimary: true },
        {
          name: "Summary",
          type: "long-text",
          isAiEnabled: true,
          inputColumns: ["Company"],
          instructions: "Summarise the company.",
        },
      ],
    });
    answerWith((req) => {
      if (req.model === "judge-model") {
        const same = req.lastUserText.includes("Makes rockets") && req.lastUserText.includes("Builds rockets");
        return { json: { correct: same, reason: same ? "Both say it makes rockets." : "Different business." } };
      }
      return {
        json: { value: company(req) === "Acme" ? "Builds rockets" : "Sells shoes", sources: [], confidenceScore: 0.7 },
      };
    });
    const rows = await addRows(app, notes.baseId, [{ Company: "Acme" }, { Company: "Globex" }]);
    await settled(app, notes.baseId);
    const cells = rows.map((r) => ({
      rowId: r.id,
      columnId: notes.col.Summary,
      action: "edit",
      value: "Makes rockets",
    }));
    expect((await app.api("POST", `/api/v1/bases/${notes.baseId}/review`, { body: { cells } })).status).toBe(200);
    llm.reset();
    const started = await app.api("POST", `/api/v1/bases/${notes.baseId}/columns/${notes.col.Summary}/evaluate`, {
      body: { judgeModel: "openai:judge-model" },
    });
    const e = await finished(started.body.id);
    const byRow = new Map(e.results.map((r: { rowId: string }) => [r.rowId, r]));
    expect(byRow.get(rows[0].id)).toMatchObject({
      got: "Builds rockets",
      correct: true,
      reason: "Both say it makes rockets.",
    });
    expect(byRow.get(rows[1].id)).toMatchObject({ got: "Sells shoes", correct: false, reason: "Different business." });
    const judged = llm.requests.filter((r) => r.model === "judge-model");
    expect(judged).toHaveLength(2);
    // The rubric is the system prompt; both texts arrive fenced as data.
    expect(judged[0].system).toContain("You judge one answer");
    expect(judged[0].lastUserText).toMatch(/UNTRUSTED_DATA[\s\S]*Makes rockets/);
    // So does the column's name: outside the fences, the judge's prompt holds only its own labels.
    const outside = judged[0].lastUserText.replace(
      /<<<UNTRUSTED_DATA (\w+) [^\n]*>>>[\s\S]*?<<<END_UNTRUSTED_DATA \1>>>/g,
      "",
    );
    expect([judged[0].lastUserText.includes("Summary"), outside.includes("Summary")]).toEqual([true, false]);
    expect(e.settings.judgeModel).toBe("openai:judge-model");
  });

  it("refuses what it cannot evaluate, and keeps workspaces apart", async () => {
    const other = (
      await app.api("POST", `/api/v1/bases/${base.baseId}/columns`, {
        body: { name: "Founded", type: "number", isAiEnabled: true, inputColumns: ["Company"] },
      })
    ).body;
    const none = await app.api("POST", `/api/v1/bases/${base.baseId}/columns/${other.id}/evaluate`, { body: {} });
    expect([none.status, none.body.error.code]).toEqual([409, "nothing_to_evaluate"]);
    const plain = await app.api("GET", `/api/v1/bases/${base.baseId}/columns/${base.col.Company}/quality`);
    expect([plain.status, plain.body.error.code]).toEqual([409, "not_reviewable"]);
    const unverified = await app.api("POST", `${columnPath()}/evaluate`, { body: { rowIds: [rowOf.X0] } });
    expect([unverified.status, unverified.body.error.code]).toEqual([400, "validation_failed"]);
    const badTool = await app.api("POST", `${columnPath()}/evaluate`, { body: { tools: ["telepathy"] } });
    expect(badTool.status).toBe(400);
    // A provider this deployment lacks is refused before anything is queued.
    const evaluations = await app.rt.db.prisma.evaluation.count();
    const unconfigured = await app.api("POST", `${columnPath()}/evaluate`, {
      body: { model: "anthropic:claude-sonnet-4-5" },
    });
    expect([unconfigured.status, unconfigured.body.error.code]).toEqual([503, "ai_not_configured"]);
    const judge = await app.api("POST", `${columnPath()}/evaluate/estimate`, {
      body: { judgeModel: "anthropic:claude-sonnet-4-5" },
    });
    expect(judge.body.error.code).toBe("ai_not_configured");
    expect(await app.rt.db.prisma.evaluation.count()).toBe(evaluations);

    const theirs = { key: app.keyB };
    expect((await app.api("GET", `/api/v1/evaluations/${evaluationId}`, theirs)).body.error.code).toBe(
      "evaluation_not_found",
    );
    expect((await app.api("GET", `${columnPath()}/quality`, theirs)).body.error.code).toBe("base_not_found");
    expect((await app.api("GET", `${columnPath()}/evaluations`, theirs)).body.error.code).toBe("base_not_found");
    expect((await app.api("POST", `${columnPath()}/evaluations/${evaluationId}/apply`, theirs)).body.error.code).toBe(
      "base_not_found",
    );
  });
});
