import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows, settled } from "./helpers.ts";
import { runScenario } from "../api/scenario.ts";

// Review: accept, edit and re-run; verified cells are never regenerated (unless forced), go stale
// when their inputs change, and teach the column as worked examples in the prompt.

let llm: FakeLlm;
let app: TestApp;
let base: TestBase;
const row: Record<string, string> = {};

const ANSWERS: Record<string, { value: string; confidence: number }> = {
  Acme: { value: "120", confidence: 0.9 },
  Globex: { value: "40", confidence: 0.4 },
  Hooli: { value: "9000", confidence: 0.95 },
};

beforeAll(async () => {
  llm = await startFakeLlm();
  app = await createTestApp(
    { OPENAI_BASE_URL: llm.baseUrl, AI_MODEL: "openai:test-model", AI_RETRY_BASE_MS: "20", AI_MAX_ATTEMPTS: "1" },
    { engine: true },
  );
  llm.setHandler((req) => {
    // The row's own inputs come first; worked examples (other rows) follow them.
    const company = /"Company": "([^"]*)"/.exec(req.lastUserText)?.[1] ?? "";
    if (!(company in ANSWERS)) return { json: { value: "lots", sources: [], confidenceScore: 0.5 } };
    return {
      json: {
        value: ANSWERS[company].value,
        sources: [],
        confidenceScore: ANSWERS[company].confidence,
        additionalDetails: "Estimated.",
      },
    };
  });
  base = await createBase(app, {
    columns: [
      { name: "Company", isPrimary: true },
      {
        name: "Employees",
        type: "number",
        isAiEnabled: true,
        inputColumns: ["Company"],
        instructions: "Head count.",
        columnOptions: { reviewThreshold: 0.7 },
      },
      { name: "Note", type: "short-text" },
    ],
  });
  for (const r of await addRows(app, base.baseId, [{ Company: "Acme" }, { Company: "Globex" }, { Company: "Initech" }]))
    row[r.cells.Company] = r.id;
  await settled(app, base.baseId);
});
afterAll(async () => {
  await app.close();
  await llm.close();
});

const review = (cells: unknown[]) => app.api("POST", `/api/v1/bases/${base.baseId}/review`, { body: { cells } });
const cell = async (company: string) =>
  (await app.api("GET", `/api/v1/bases/${base.baseId}/rows/${row[company]}?expand=true`)).body.cells.Employees;
const needingReview = async () =>
  (
    await app.api("POST", `/api/v1/bases/${base.baseId}/rows/query`, {
      body: { filter: { column: "Employees", needsReview: true }, count: true },
    })
  ).body;

describe("review", () => {
  it("routes low confidence and errors to review", async () => {
    expect(await cell("Acme")).toMatchObject({ value: "120", status: "done", needsReview: false, verified: false });
    expect(await cell("Globex")).toMatchObject({ value: "40", status: "done", needsReview: true });
    expect(await cell("Initech")).toMatchObject({ status: "error", needsReview: true });
    const q = await needingReview();
    expect(q.total).toBe(2);
    expect(q.rows.map((r: any) => r.cells.Company)).toEqual(["Globex", "Initech"]);
  });

  it("accepts, edits and reports cells that cannot take their action", async () => {
    const res = await runScenario(app, {
      name: "review",
      method: "POST",
      path: `/api/v1/bases/${base.baseId}/review`,
      body: {
        cells: [
          { rowId: row.Acme, columnId: base.col.Employees, action: "accept" },
          { rowId: row.Globex, columnId: "Employees", action: "edit", value: "250" },
          { rowId: row.Initech, columnId: base.col.Employees, action: "accept" },
          { rowId: row.Initech, columnId: base.col.Note, action: "accept" },
          { rowId: "sr_nope", columnId: base.col.Employees, action: "accept" },
          { rowId: row.Acme, columnId: base.col.Employees, action: "edit", value: "many" },
        ],
      },
      status: 200,
    });
    expect(res.body.cells).toEqual([
      {
        rowId: row.Acme,
        columnId: base.col.Employees,
        action: "accept",
        actionId: expect.stringMatching(/^rev_/),
        value: "120",
        status: "done",
        verified: true,
      },
      {
        rowId: row.Globex,
        columnId: base.col.Employees,
        action: "edit",
        actionId: expect.stringMatching(/^rev_/),
        value: "250",
        status: "done",
        verified: true,
      },
    ]);
    expect(res.body.errors.map((e: any) => [e.rowId, e.code])).toEqual([
      [row.Initech, "not_reviewable"],
      ["sr_nope", "row_not_found"],
      [row.Acme, "not_reviewable"],
      [row.Initech, "not_reviewable"],
    ]);
    expect(await cell("Globex")).toMatchObject({
      value: "250",
      verified: true,
      needsReview: false,
      metadata: { aiValue: "40", confidenceScore: 0.4 },
    });
    expect((await needingReview()).total).toBe(1);
  });

  it("records every action with who, when, before and after", async () => {
    const res = await app.api("GET", `/api/v1/bases/${base.baseId}/review`);
    expect(res.status).toBe(200);
    const edit = res.body.actions.find((a: any) => a.action === "edit");
    const accept = res.body.actions.find((a: any) => a.action === "accept");
    expect(res.body.actions).toHaveLength(2);
    expect(edit).toMatchObject({
      rowId: row.Globex,
      action: "edit",
      before: { value: "40", verified: false, confidence: 0.4 },
      after: { value: "250", verified: true },
    });
    expect(accept).toMatchObject({
      rowId: row.Acme,
      action: "accept",
      before: { value: "120", verified: false },
      after: { value: "120", verified: true },
    });
    expect(edit.actorKeyId).toMatch(/^key_/);
  });

  it("never regenerates a verified cell: not by run, not with onlyEmpty false", async () => {
    const estimate = await app.api("POST", `/api/v1/bases/${base.baseId}/run/estimate`, { body: { onlyEmpty: false } });
    expect(estimate.body.cells).toBe(1); // Initech only
    const run = await app.api("POST", `/api/v1/bases/${base.baseId}/run`, { body: { rowIds: [row.Acme, row.Globex] } });
    expect(run.body.queued).toBe(0);
    expect(await cell("Acme")).toMatchObject({ value: "120", status: "done", verified: true });
  });

  it("makes a verified cell stale (and due for review) when its inputs change, without re-running it", async () => {
    const res = await app.api("POST", `/api/v1/bases/${base.baseId}/update-rows`, {
      body: { rows: [{ id: row.Acme, cells: { Company: "Acme Corp" } }] },
    });
    expect(res.body.errors).toEqual([]);
    expect(await cell("Acme")).toMatchObject({
      value: "120",
      status: "done",
      verified: true,
      stale: true,
      needsReview: true,
    });
    await app.api("POST", `/api/v1/bases/${base.baseId}/update-rows`, {
      body: { rows: [{ id: row.Acme, cells: { Company: "Acme" } }] },
    });
    await review([{ rowId: row.Acme, columnId: base.col.Employees, action: "accept" }]);
    expect(await cell("Acme")).toMatchObject({ verified: true, needsReview: false });
    expect((await cell("Acme")).stale).toBeUndefined();
  });

  it("sends verified cells to the model as fenced worked examples, edited ones first", async () => {
    const before = llm.totalRequests;
    const [hooli] = await addRows(app, base.baseId, [{ Company: "Hooli" }]);
    row.Hooli = hooli.id;
    await settled(app, base.baseId);
    const req = llm.requests.slice(before).find((r) => r.lastUserText.includes('"Company": "Hooli"'));
    expect(req).toBeDefined();
    const text = req!.lastUserText;
    expect(text).toContain("Worked examples");
    const fenced =
      /<<<UNTRUSTED_DATA \w+ source="verified examples">>>\n[^\n]*\n([\s\S]*?)\n<<<END_UNTRUSTED_DATA/.exec(text);
    expect(fenced).not.toBeNull();
    expect(JSON.parse(fenced![1])).toEqual([
      { inputs: { Company: "Globex" }, value: "250" },
      { inputs: { Company: "Acme" }, value: "120" },
    ]);
    expect(JSON.stringify(req!.body)).toContain("verified examples");
  });

  it("re-runs a cell on request, clearing verified; force regenerates a verified cell", async () => {
    const res = await review([{ rowId: row.Globex, columnId: base.col.Employees, action: "rerun" }]);
    expect(res.body.cells[0]).toMatchObject({ action: "rerun", value: "", verified: false });
    await settled(app, base.baseId);
    expect(await cell("Globex")).toMatchObject({ value: "40", verified: false, needsReview: true });
    const forced = await app.api("POST", `/api/v1/bases/${base.baseId}/run`, {
      body: { rowIds: [row.Acme], force: true },
    });
    expect(forced.body.queued).toBe(1);
    await settled(app, base.baseId);
    expect(await cell("Acme")).toMatchObject({ value: "120", verified: false });
  });

  it("rejects reviews of another workspace's base and malformed bodies", async () => {
    const other = await app.api("POST", `/api/v1/bases/${base.baseId}/review`, {
      key: app.keyB,
      body: { cells: [{ rowId: row.Acme, columnId: base.col.Employees, action: "accept" }] },
    });
    expect(other.body.error.code).toBe("base_not_found");
    const bad = await review([{ rowId: row.Acme, columnId: base.col.Employees, action: "approve" }]);
    expect(bad.body.error.code).toBe("validation_failed");
  });
});
