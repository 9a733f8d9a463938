import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows, settled, useEngineApp } from "./helpers.ts";

// Undo of a review action, and the rule that a cell is never its own worked example.

const t = useEngineApp({ AI_MAX_ATTEMPTS: "1" });
let base: TestBase;
const row: Record<string, string> = {};
const ANSWERS: Record<string, [string, number]> = { Acme: ["120", 0.9], Globex: ["40", 0.4], Hooli: ["9000", 0.5] };

const answer = () =>
  t.llm.setHandler((req) => {
    const company = /"Company": "([^"]*)"/.exec(req.lastUserText)?.[1] ?? "";
    const [value, confidenceScore] = ANSWERS[company] ?? ["?", 0.5];
    return { json: { value, sources: [], confidenceScore } };
  });

beforeAll(async () => {
  answer();
  base = await createBase(t.app, {
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Employees", type: "number", isAiEnabled: true, inputColumns: ["Company"], instructions: "Head count." },
    ],
  });
  for (const r of await addRows(t.app, base.baseId, [{ Company: "Acme" }, { Company: "Globex" }, { Company: "Hooli" }]))
    row[r.cells.Company] = r.id;
  await settled(t.app, base.baseId);
});
beforeEach(answer);

const review = async (company: string, action: string, value?: string) => {
  const res = await t.app.api("POST", `/api/v1/bases/${base.baseId}/review`, {
    body: { cells: [{ rowId: row[company], columnId: base.col.Employees, action, value }] },
  });
  expect(res.body.errors).toEqual([]);
  return res.body.cells[0].actionId as string;
};
const undo = (actionId: string, key?: string) =>
  t.app.api("POST", `/api/v1/bases/${base.baseId}/review/${actionId}/undo`, { key });
const cell = async (company: string) =>
  (await t.app.api("GET", `/api/v1/bases/${base.baseId}/rows/${row[company]}?expand=true`)).body.cells.Employees;

describe("undo a review action", () => {
  it("takes back an accept: the cell is unverified and due for review again", async () => {
    const id = await review("Globex", "accept");
    expect(await cell("Globex")).toMatchObject({ verified: true, needsReview: false });
    const res = await undo(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      action: "undo",
      undone: id,
      value: "40",
      status: "done",
      verified: false,
      actionId: expect.stringMatching(/^rev_/),
    });
    expect(await cell("Globex")).toMatchObject({ value: "40", verified: false, needsReview: true });
  });

  it("takes back an edit: the model's value returns and metadata.aiValue goes", async () => {
    const id = await review("Globex", "edit", "250");
    expect(await cell("Globex")).toMatchObject({ value: "250", metadata: { aiValue: "40" } });
    expect((await undo(id)).status).toBe(200);
    const now = await cell("Globex");
    expect(now).toMatchObject({ value: "40", verified: false, needsReview: true });
    expect(now.metadata.aiValue).toBeUndefined();
  });

  it("undoes only the cell's latest action, once, and never a re-run", async () => {
    const first = await review("Acme", "accept");
    const second = await review("Acme", "edit", "130");
    const stale = await undo(first);
    expect([stale.status, stale.body.error.code]).toEqual([409, "not_reviewable"]);
    expect((await undo(second)).status).toBe(200);
    // Back to the accepted state: verified, with the accepted value.
    expect(await cell("Acme")).toMatchObject({ value: "120", verified: true });
    const again = await undo(second);
    expect(again.status).toBe(409);
    const rerun = await review("Hooli", "rerun");
    expect((await undo(rerun)).body.error.code).toBe("not_reviewable");
    await settled(t.app, base.baseId);
  });

  it("refuses when the cell changed since, and records every undo in the history", async () => {
    const id = await review("Globex", "edit", "300");
    await t.app.api("POST", `/api/v1/bases/${base.baseId}/update-rows`, {
      body: { rows: [{ id: row.Globex, cells: { Employees: "310" } }] },
    });
    expect((await undo(id)).body.error.code).toBe("not_reviewable");
    const history = (await t.app.api("GET", `/api/v1/bases/${base.baseId}/review`)).body.actions;
    const undos = history.filter((a: any) => a.action === "undo");
    expect(undos).toHaveLength(3);
    expect(undos.at(-1)).toMatchObject({
      rowId: row.Globex,
      before: { value: "40", verified: true },
      after: { value: "40", verified: false },
    });
  });

  it("answers 404 for an unknown action, another workspace's key, or a bad id", async () => {
    const id = await review("Hooli", "accept");
    expect((await undo("rev_doesnotexist")).body.error.code).toBe("review_action_not_found");
    expect((await undo(id, t.app.keyB)).body.error.code).toBe("base_not_found");
    expect((await undo("rev%00x")).body.error.code).toBe("review_action_not_found");
    expect(await cell("Hooli")).toMatchObject({ verified: true });
  });
});

describe("the audit log", () => {
  it("records an undo: the caller, the action taken back, its cell, never the cell's value", async () => {
    const key = await t.app.rt.db.prisma.apiKey.findFirstOrThrow({ where: { workspaceId: t.app.workspaceA } });
    const id = await review("Globex", "edit", "777");
    const undoes = () => t.app.rt.db.prisma.auditEntry.findMany({ where: { action: "review.undo" } });
    const already = (await undoes()).length;
    const res = await undo(id);
    expect(res.status).toBe(200);
    const entries = await undoes();
    expect(entries).toHaveLength(already + 1);
    const entry = entries.find((e) => e.targetId === id);
    expect(entry).toMatchObject({
      workspaceId: t.app.workspaceA,
      actorType: "key",
      actorId: key.id,
      actorName: key.name,
      targetType: "review_action",
      targetId: id,
      baseId: base.baseId,
    });
    expect(entry?.summary).toEqual({ rowId: row.Globex, columnId: base.col.Employees });
    expect(JSON.stringify(entry)).not.toContain("777");
    // A refused undo (already taken back) records nothing.
    expect((await undo(id)).status).toBe(409);
    expect(await undoes()).toHaveLength(already + 1);
  });
});

describe("worked examples", () => {
  it("never shows a cell its own verified value as an example", async () => {
    await review("Globex", "edit", "250");
    const before = t.llm.totalRequests;
    // Hooli is verified (accepted above); force makes it run again.
    const run = await t.app.api("POST", `/api/v1/bases/${base.baseId}/run`, {
      body: { rowIds: [row.Hooli], force: true },
    });
    expect(run.body.queued).toBe(1);
    await settled(t.app, base.baseId);
    const req = t.llm.requests.slice(before).find((r) => r.lastUserText.includes('"Company": "Hooli"'));
    expect(req).toBeDefined();
    const body = JSON.stringify(req!.body);
    expect(body).toContain("verified examples");
    expect(body).toContain('\\"Globex\\"');
    // Hooli appears once: as the row's own input, never as an example.
    expect(req!.lastUserText.match(/"Company": "Hooli"/g)).toHaveLength(1);
  });
});
