import { afterAll, beforeAll, expect } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import type { FakeLlmRequest } from "../support/fake-llm-types.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { waitFor } from "../support/wait.ts";
import { addRows, settled } from "../engine/helpers.ts";

// The column that quality.test.ts and evaluations.test.ts measure, on the real engine and a
// scripted fake LLM: 40 reviewed cells with known confidences, whose figures are worked out by hand
// in quality.test.ts. Each test file that calls useReviewedColumn() has its own app and model.

export let llm: FakeLlm;
export let app: TestApp;
export let base: TestBase;
export const rowOf: Record<string, string> = {};
export const pad = (i: number) => String(i).padStart(2, "0");
export const truth = (i: number) => `Sector ${pad(i)}`;
export const company = (req: FakeLlmRequest) => /"Company": "([^"]*)"/.exec(req.lastUserText)?.[1] ?? "";
export const index = (req: FakeLlmRequest) => Number(company(req).slice(1));

// The column's first answers: C00–C09 right at 0.95; C10–C19 at 0.85, right but for C19;
// C20–C29 at 0.55, right on even rows; C30–C39 wrong at 0.25; X0–X4 (never reviewed) at 0.6.
export function firstAnswer(req: FakeLlmRequest) {
  const name = company(req);
  if (name.startsWith("E")) return { status: 500, message: "upstream broke" };
  if (name.startsWith("X")) return { json: { value: "Unknown", sources: [], confidenceScore: 0.6 } };
  const i = index(req);
  const [confidence, right] =
    i < 10 ? [0.95, true] : i < 20 ? [0.85, i !== 19] : i < 30 ? [0.55, i % 2 === 0] : [0.25, false];
  return { json: { value: right ? truth(i) : `Wrong ${pad(i)}`, sources: [], confidenceScore: confidence } };
}

// The evaluated model: right on C00–C29, wrong on C30–C39, always at 0.9.
export function evaluatedAnswer(req: FakeLlmRequest) {
  const i = index(req);
  return { json: { value: i < 30 ? truth(i) : `Still wrong ${pad(i)}`, sources: [], confidenceScore: 0.9 } };
}

let handler: (req: FakeLlmRequest) => object | undefined = firstAnswer;
/** What the fake model answers from now on. */
export function answerWith(next: (req: FakeLlmRequest) => object | undefined): void {
  handler = next;
}

/** The app (with `env` added to its settings), the fake model and the reviewed column, for the test file that calls it. */
export function useReviewedColumn(env: Record<string, string> = {}): void {
  beforeAll(async () => {
    llm = await startFakeLlm();
    app = await createTestApp(
      {
        OPENAI_BASE_URL: llm.baseUrl,
        AI_MODEL: "openai:test-model",
        AI_RETRY_BASE_MS: "20",
        AI_MAX_ATTEMPTS: "1",
        ...env,
      },
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
}

export const columnPath = () => `/api/v1/bases/${base.baseId}/columns/${base.col.Sector}`;
export const quality = async () => (await app.api("GET", `${columnPath()}/quality`)).body;
export const evaluation = async (id: string) => (await app.api("GET", `/api/v1/evaluations/${id}`)).body;
export const finished = (id: string, statuses = ["done", "cancelled"]) =>
  waitFor(
    async () => {
      const e = await evaluation(id);
      return statuses.includes(e.status) ? e : undefined;
    },
    `evaluation ${id} to finish`,
    30_000,
  );
