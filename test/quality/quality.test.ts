import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import type { FakeLlmRequest } from "../support/fake-llm-types.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { waitFor } from "../support/wait.ts";
import { addRows, expandedRows, settled } from "../engine/helpers.ts";

// Column quality end to end, on the real engine and a scripted fake LLM: 40 reviewed cells with
// known confidences give figures worked out by hand below; an evaluation regenerates the column
// blind with other instructions and model, never shows a row its own label, never touches the
// base, and can be applied, cancelled and capped.

let llm: FakeLlm;
let app: TestApp;
let base: TestBase;
const rowOf: Record<string, string> = {};
const pad = (i: number) => String(i).padStart(2, "0");
const truth = (i: number) => `Sector ${pad(i)}`;
const company = (req: FakeLlmRequest) => /"Company": "([^"]*)"/.exec(req.lastUserText)?.[1] ?? "";
const index = (req: FakeLlmRequest) => Number(company(req).slice(1));

// The column's first answers: C00–C09 right at 0.95; C10–C19 at 0.85, right but for C19;
// C20–C29 at 0.55, right on even rows; C30–C39 wrong at 0.25; X0–X4 (never reviewed) at 0.6.
function firstAnswer(req: FakeLlmRequest) {
  const name = company(req);
  if (name.startsWith("E")) return { status: 500, message: "upstream broke" };
  if (name.startsWith("X")) return { json: { value: "Unknown", sources: [], confidenceScore: 0.6 } };
  const i = index(req);
  const [confidence, right] =
    i < 10 ? [0.95, true] : i < 20 ? [0.85, i !== 19] : i < 30 ? [0.55, i % 2 === 0] : [0.25, false];
  return { json: { value: right ? truth(i) : `Wrong ${pad(i)}`, sources: [], confidenceScore: confidence } };
}

// The evaluated model: right on C00–C29, wrong on C30–C39, always at 0.9.
function evaluatedAnswer(req: FakeLlmRequest) {
  const i = index(req);
  return { json: { value: i < 30 ? truth(i) : `Still wrong ${pad(i)}`, sources: [], confidenceScore: 0.9 } };
}

let handler: (req: FakeLlmRequest) => object | undefined = firstAnswer;

beforeAll(async () => {
  llm = await startFakeLlm();
  app = await createTestApp(
    { OPENAI_BASE_URL: llm.baseUrl, AI_MODEL: "openai:test-model", AI_RETRY_BASE_MS: "20", AI_MAX_ATTEMPTS: "1" },
    { engine: true },
  );
  llm.setHandler((req) => handler(req));
  base = await createBase(app, {
    columns: [
      { name: "Company", isPrimary: true },
      {
        name: "Sector",
        type: "short-text",
        isAiEnabled: true,
        inputColumns: ["Company"],
        instructions: "The company's sector.",
      },
    ],
  });
  const names = [...Array.from({ length: 40 }, (_, i) => `C${pad(i)}`), "X0", "X1", "X2", "X3", "X4", "E1", "E2"];
  for (const r of await addRows(
    app,
    base.baseId,
    names.map((Company) => ({ Company })),
  ))
    rowOf[r.cells.Company] = r.id;
  await settled(app, base.baseId, 30_000);
  const cells = Array.from({ length: 40 }, (_, i) => {
    const right = i < 10 || (i < 20 && i !== 19) || (i >= 20 && i < 30 && i % 2 === 0);
    return right
      ? { rowId: rowOf[`C${pad(i)}`], columnId: base.col.Sector, action: "accept" }
      : { rowId: rowOf[`C${pad(i)}`], columnId: base.col.Sector, action: "edit", value: truth(i) };
  });
  const res = await app.api("POST", `/api/v1/bases/${base.baseId}/review`, { body: { cells } });
  expect(res.status, res.text).toBe(200);
  expect(res.body.errors).toEqual([]);
}, 60_000);
afterAll(async () => {
  await app?.close();
  await llm?.close();
});

const columnPath = () => `/api/v1/bases/${base.baseId}/columns/${base.col.Sector}`;
const quality = async () => (await app.api("GET", `${columnPath()}/quality`)).body;
const evaluation = async (id: string) => (await app.api("GET", `/api/v1/evaluations/${id}`)).body;
const finished = (id: string, statuses = ["done", "cancelled"]) =>
  waitFor(
    async () => {
      const e = await evaluation(id);
      return statuses.includes(e.status) ? e : undefined;
    },
    `evaluation ${id} to finish`,
    30_000,
  );

describe("the quality of a column", () => {
  it("measures agreement, buckets, calibration error and the threshold from the review history", async () => {
    const q = await quality();
    expect(q).toMatchObject({
      columnId: base.col.Sector,
      reviewed: 40,
      accepted: 24,
      edited: 16,
      agreement: 0.6,
      calibrated: true,
      reviewThreshold: 0.7,
      reviewBy: "model",
    });
    expect(q.byConfidence).toEqual([
      { from: 0.2, to: 0.3, cells: 10, agreement: 0, confidence: 0.25 },
      { from: 0.5, to: 0.6, cells: 10, agreement: 0.5, confidence: 0.55 },
      { from: 0.8, to: 0.9, cells: 10, agreement: 0.9, confidence: 0.85 },
      { from: 0.9, to: 1, cells: 10, agreement: 1, confidence: 0.95 },
    ]);
    // ¼·|0 − 0.25| + ¼·|0.5 − 0.55| + ¼·|0.9 − 0.85| + ¼·|1 − 0.95| = ¼ · 0.4
    expect(q.expectedCalibrationError).toBe(0.1);
    // ≥ 0.25: 24/40; ≥ 0.55: 24/30 = 0.8; ≥ 0.85: 19/20 = 0.95, the first at 90%.
    expect(q.suggestedReviewThreshold).toBe(0.85);
    expect(q.errors).toEqual({ count: 2, byCode: expect.any(Object) });
    expect(Object.values(q.errors.byCode).reduce((a: number, b) => a + (b as number), 0)).toBe(2);
    // X0–X4 are done at 0.6, above 0.7? No: below it, and the two errors need review too.
    expect(q.needsReview).toBe(7);
  });

  it("gives cells a calibrated confidence from the isotonic fit", async () => {
    const byId = new Map((await expandedRows(app, base.baseId)).map((r) => [r.id, r.cells.Sector]));
    // The fit passes through (0.25, 0), (0.55, 0.5), (0.85, 0.9), (0.95, 1): the labels are already monotone.
    expect(byId.get(rowOf.C10)!.metadata).toMatchObject({ confidenceScore: 0.85, calibratedConfidence: 0.9 });
    expect(byId.get(rowOf.C30)!.metadata).toMatchObject({ confidenceScore: 0.25, calibratedConfidence: 0 });
    // 0.6 lies between 0.55 and 0.85: 0.5 + (0.05 / 0.3) · 0.4 = 0.5667.
    expect(byId.get(rowOf.X0)!.metadata).toMatchObject({ confidenceScore: 0.6, calibratedConfidence: 0.5667 });
  });

  it("applies the review threshold to the calibrated value with reviewBy calibrated", async () => {
    const setOptions = (columnOptions: object) => app.api("PATCH", columnPath(), { body: { columnOptions } });
    const needing = async () =>
      (
        await app.api("POST", `/api/v1/bases/${base.baseId}/rows/query`, {
          body: { filter: { column: "Sector", needsReview: true }, count: true },
        })
      ).body.total;
    expect((await setOptions({ reviewThreshold: 0.6 })).status).toBe(200);
    expect(await needing()).toBe(2); // 0.6 is not below 0.6: only the errors
    expect((await setOptions({ reviewThreshold: 0.6, reviewBy: "calibrated" })).status).toBe(200);
    expect(await needing()).toBe(7); // calibrated 0.5667 is below 0.6
    expect((await quality()).needsReview).toBe(7);
    const x0 = (await app.api("GET", `/api/v1/bases/${base.baseId}/rows/${rowOf.X0}?expand=true`)).body.cells.Sector;
    expect(x0.needsReview).toBe(true);
    expect((await setOptions({ reviewBy: "sometimes" })).body.error.code).toBe("validation_failed");
    await setOptions({});
  });

  it("refits when a review is undone", async () => {
    const history = (await app.api("GET", `/api/v1/bases/${base.baseId}/review`)).body.actions;
    const accept = history.find(
      (a: { rowId: string; action: string }) => a.rowId === rowOf.C00 && a.action === "accept",
    );
    expect((await app.api("POST", `/api/v1/bases/${base.baseId}/review/${accept.id}/undo`)).status).toBe(200);
    expect(await quality()).toMatchObject({ reviewed: 39, accepted: 23 });
    await app.api("POST", `/api/v1/bases/${base.baseId}/review`, {
      body: { cells: [{ rowId: rowOf.C00, columnId: base.col.Sector, action: "accept" }] },
    });
    expect(await quality()).toMatchObject({ reviewed: 40, accepted: 24 });
  });
});

describe("evaluations", () => {
  let evaluationId: string;

  it("regenerates blind with the overrides, compares, and leaves the base alone", async () => {
    const before = JSON.stringify(await expandedRows(app, base.baseId));
    handler = (req) => (req.model === "other-model" ? evaluatedAnswer(req) : firstAnswer(req));
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
    handler = (req) => ({ ...evaluatedAnswer(req), delayMs: 300 });
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
    handler = (req) => (req.model === "slow-model" ? { ...evaluatedAnswer(req), delayMs: 60_000 } : firstAnswer(req));
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
    handler = (req) => {
      if (req.model === "judge-model") {
        const same = req.lastUserText.includes("Makes rockets") && req.lastUserText.includes("Builds rockets");
        return { json: { correct: same, reason: same ? "Both say it makes rockets." : "Different business." } };
      }
      return {
        json: { value: company(req) === "Acme" ? "Builds rockets" : "Sells shoes", sources: [], confidenceScore: 0.7 },
      };
    };
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
