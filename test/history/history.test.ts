import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows, settled, useEngineApp } from "../engine/helpers.ts";
import { historyOf, rerun, revertCell, revertRun, cellOf } from "./helpers.ts";

// Cell history: every kind of change is recorded with both sides, sources, confidence and actor;
// a refresh that finds the same value (as its type compares it) records nothing.

const t = useEngineApp({ AI_MAX_ATTEMPTS: "1" });
let base: TestBase;
let rowId: string;
const answers: Record<string, { value: string; confidence: number } | "fail"> = {};

// The fake model is reset before each test: every test answers from `answers`.
const answer = () =>
  t.llm.setHandler((req) => {
    const company = /"Company": "([^"]*)"/.exec(req.lastUserText)?.[1] ?? "";
    const a = answers[company];
    if (a === "fail") return { status: 400, json: { error: { message: "refused", type: "invalid_request_error" } } };
    return { json: { value: a?.value ?? "?", sources: [], confidenceScore: a?.confidence ?? 0.5 } };
  });
beforeEach(answer);

beforeAll(async () => {
  answer();
  answers.Acme = { value: "120", confidence: 0.9 };
  base = await createBase(t.app, {
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Note" },
      { name: "Employees", type: "number", isAiEnabled: true, inputColumns: ["Company"], instructions: "Head count." },
      { name: "Shout", fill: { kind: "formula", expression: "$uppercase(Note)" } },
      { name: "Staff", fill: { kind: "formula", expression: '$string(Employees) & " staff"' } },
    ],
  });
  [{ id: rowId }] = await addRows(t.app, base.baseId, [{ Company: "Acme", Note: "first" }]);
  await settled(t.app, base.baseId);
});

describe("cell history", () => {
  it("records a first answer with its sources, confidence and run", async () => {
    const [entry] = await historyOf(t.app, base, rowId, `?columnId=${base.col.Employees}`);
    expect(entry).toMatchObject({
      id: expect.stringMatching(/^chg_/),
      kind: "answer",
      columnId: base.col.Employees,
      before: { value: "", status: null },
      after: { value: "120", status: "done", confidence: 0.9 },
      actor: { runId: expect.stringMatching(/^run_/) },
    });
  });

  it("records nothing when a refresh finds the same value, typed", async () => {
    answers.Acme = { value: "120.0", confidence: 0.8 };
    await rerun(t.app, base, [base.col.Employees]);
    expect(await historyOf(t.app, base, rowId, `?columnId=${base.col.Employees}`)).toHaveLength(1);
  });

  it("records a refresh that changed the value, against the value before", async () => {
    answers.Acme = { value: "150", confidence: 0.7 };
    const runId = await rerun(t.app, base, [base.col.Employees]);
    const [entry] = await historyOf(t.app, base, rowId, `?columnId=${base.col.Employees}`);
    expect(entry).toMatchObject({
      kind: "answer",
      before: { value: "120", status: "done" },
      after: { value: "150", status: "done", confidence: 0.7 },
      actor: { runId },
    });
  });

  it("records an edit with its key, and the formula it recomputed", async () => {
    const res = await t.app.api("POST", `/api/v1/bases/${base.baseId}/update-rows`, {
      body: { rows: [{ id: rowId, cells: { Note: "second" } }] },
    });
    expect(res.status).toBe(200);
    const entries = await historyOf(t.app, base, rowId);
    const edit = entries.find((e) => e.columnId === base.col.Note);
    const formula = entries.find((e) => e.columnId === base.col.Shout);
    expect(edit).toMatchObject({ kind: "edit", before: { value: "first" }, after: { value: "second" } });
    expect(edit.actor.actorId).toMatch(/^key_/);
    expect(formula).toMatchObject({ kind: "formula", before: { value: "FIRST" }, after: { value: "SECOND" } });
  });

  it("records a review, even one that keeps the value", async () => {
    const res = await t.app.api("POST", `/api/v1/bases/${base.baseId}/review`, {
      body: { cells: [{ rowId, columnId: base.col.Employees, action: "accept" }] },
    });
    expect(res.body.errors).toEqual([]);
    const [entry] = await historyOf(t.app, base, rowId, `?columnId=${base.col.Employees}`);
    expect(entry).toMatchObject({ kind: "review", reason: "accept", after: { value: "150" } });
  });

  it("records a reviewer's correction and the formula it recomputed, and both again on its undo", async () => {
    const review = await t.app.api("POST", `/api/v1/bases/${base.baseId}/review`, {
      body: { cells: [{ rowId, columnId: base.col.Employees, action: "edit", value: "200" }] },
    });
    expect(review.body.errors).toEqual([]);
    const [staff] = await historyOf(t.app, base, rowId, `?columnId=${base.col.Staff}`);
    expect(staff).toMatchObject({ kind: "formula", before: { value: "150 staff" }, after: { value: "200 staff" } });
    expect(staff.actor.actorId).toMatch(/^key_/);
    const undo = await t.app.api("POST", `/api/v1/bases/${base.baseId}/review/${review.body.cells[0].actionId}/undo`);
    expect(undo.status, undo.text).toBe(200);
    const [undone] = await historyOf(t.app, base, rowId, `?columnId=${base.col.Staff}`);
    expect(undone).toMatchObject({ kind: "formula", before: { value: "200 staff" }, after: { value: "150 staff" } });
  });

  it("records a failed answer: the value is gone, with the error's code", async () => {
    answers.Acme = "fail";
    await rerun(t.app, base, [base.col.Employees]);
    const [entry] = await historyOf(t.app, base, rowId, `?columnId=${base.col.Employees}`);
    expect(entry).toMatchObject({
      kind: "answer",
      before: { value: "150", status: "done" },
      after: { value: "", status: "error" },
    });
    expect(entry.reason).toBeTruthy();
  });

  it("reverts a cell to what it held before a change, its confidence included, and records the revert", async () => {
    const entries = await historyOf(t.app, base, rowId, `?columnId=${base.col.Employees}`);
    const failed = entries[0];
    const res = await revertCell(t.app, base, rowId, base.col.Employees, failed.id);
    expect(res.status).toBe(200);
    expect(res.body.revertedTo).toEqual({ value: "150", historyId: failed.id });
    const cell = await cellOf(t.app, base, rowId, "Employees");
    expect(cell).toMatchObject({ value: "150", status: "done" });
    expect(cell.metadata.confidenceScore).toBe(0.7);
    const [latest] = await historyOf(t.app, base, rowId, `?columnId=${base.col.Employees}`);
    expect(latest).toMatchObject({ kind: "revert", before: { value: "" }, after: { value: "150" } });
  });

  it("pages newest first", async () => {
    const all = await historyOf(t.app, base, rowId);
    const first = await t.app.api("GET", `/api/v1/bases/${base.baseId}/rows/${rowId}/history?limit=2`);
    expect(first.body.entries.map((e: any) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
    const next = await t.app.api(
      "GET",
      `/api/v1/bases/${base.baseId}/rows/${rowId}/history?limit=100&cursor=${first.body.nextCursor}`,
    );
    expect(next.body.entries.map((e: any) => e.id)).toEqual(all.slice(2).map((e) => e.id));
    expect(next.body.nextCursor).toBeNull();
  });

  it("refuses what it cannot do, changing nothing", async () => {
    const [entry] = await historyOf(t.app, base, rowId, `?columnId=${base.col.Shout}`);
    const formula = await revertCell(t.app, base, rowId, base.col.Shout, entry.id);
    expect([formula.status, formula.body.error.code]).toEqual([409, "not_revertible"]);
    const unknown = await revertCell(t.app, base, rowId, base.col.Note, "chg_nope");
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "history_entry_not_found"]);
    const cursor = await t.app.api("GET", `/api/v1/bases/${base.baseId}/rows/${rowId}/history?cursor=nope`);
    expect([cursor.status, cursor.body.error.code]).toEqual([400, "invalid_cursor"]);
    const other = await t.app.api("GET", `/api/v1/bases/${base.baseId}/rows/${rowId}/history`, { key: t.app.keyB });
    expect(other.status).toBe(404);
    const otherRevert = await revertCell(t.app, base, rowId, base.col.Note, entry.id);
    expect(otherRevert.status).toBe(404);
  });
});

describe("reverting a run", () => {
  it("counts first, then puts back what the run changed, leaving cells edited since", async () => {
    const { rows } = (
      await t.app.api("POST", `/api/v1/bases/${base.baseId}/add-rows`, {
        body: { rows: [{ cells: { Company: "Globex" } }, { cells: { Company: "Hooli" } }] },
      })
    ).body;
    answers.Globex = { value: "40", confidence: 0.6 };
    answers.Hooli = { value: "9000", confidence: 0.6 };
    await settled(t.app, base.baseId);
    answers.Globex = { value: "41", confidence: 0.6 };
    answers.Hooli = { value: "9100", confidence: 0.6 };
    const ids = rows.map((r: { id: string }) => r.id);
    const runId = await rerun(t.app, base, [base.col.Employees], ids);
    // Hooli's cell is edited after the run: the revert leaves it.
    await t.app.api("POST", `/api/v1/bases/${base.baseId}/update-rows`, {
      body: { rows: [{ id: ids[1], cells: { Employees: "9200" } }] },
    });
    const dry = await revertRun(t.app, runId, true);
    expect(dry.body).toEqual({ runId, dryRun: true, cells: 1, rows: 1 });
    expect((await cellOf(t.app, base, ids[0], "Employees")).value).toBe("41");
    const done = await revertRun(t.app, runId);
    expect(done.body).toMatchObject({ dryRun: false, cells: 1 });
    expect((await cellOf(t.app, base, ids[0], "Employees")).value).toBe("40");
    expect((await cellOf(t.app, base, ids[1], "Employees")).value).toBe("9200");
    // Reverted once: nothing of the run is left to revert.
    expect((await revertRun(t.app, runId, true)).body.cells).toBe(0);
  });
});
