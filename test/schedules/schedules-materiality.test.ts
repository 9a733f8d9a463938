import { beforeAll, describe, expect, it } from "vitest";
import { createBase, type TestBase } from "../support/bases.ts";
import type { FakeLlmRequest, FakeReply } from "../support/fake-llm-types.ts";
import { waitRun } from "../engine/runs-helpers.ts";
import { processed, register, useRelayAndReceiver } from "../webhooks/helpers.ts";
import { MATERIALITY_RUBRIC } from "../../lib/engine/materiality.ts";
import { addRows, answer, createSchedule, useScheduleApp } from "./helpers.ts";

// materiality "model": a scheduled refresh has the model judge each text change. A material one
// is announced with the model's reason; a rewording is stored and recorded, not announced; both
// judgments are charged. Numbers are compared by type and never judged; a judge that fails leaves
// the change announced, uncharged.

const t = useScheduleApp({ ALLOWED_PRIVATE_HOSTS: "127.0.0.1,::1", AI_MAX_ATTEMPTS: "1" });
const hooks = useRelayAndReceiver(() => t.app);
const COLUMNS = [
  { name: "Company", type: "short-text", isPrimary: true },
  { name: "Title", type: "short-text", isAiEnabled: true, inputColumns: ["Company"], instructions: "Leader title." },
  { name: "Headcount", type: "number", isAiEnabled: true, inputColumns: ["Company"], instructions: "Employees." },
];

type Answers = Record<string, { Title: string; Headcount: string }>;
const judged: string[] = [];

/** Cells answer from `answers`; the judge calls `verdict` with what it was shown. */
function script(answers: Answers, verdict: (shown: string) => FakeReply) {
  t.llm.setHandler((req: FakeLlmRequest) => {
    if (req.system.startsWith(MATERIALITY_RUBRIC.slice(0, 60))) {
      judged.push(req.lastUserText);
      return verdict(req.lastUserText);
    }
    const company = /"Company": "([^"]*)"/.exec(req.lastUserText)?.[1] ?? "";
    const column = (req.system + req.lastUserText).includes("Employees.") ? "Headcount" : "Title";
    return answer(answers[company][column]);
  });
}

let base: TestBase & { rowIds: string[] };
let scheduleId: string;

beforeAll(async () => {
  const b = await createBase(t.app, { columns: COLUMNS });
  script(
    {
      Acme: { Title: "VP of Sales", Headcount: "100" },
      Globex: { Title: "Head of Marketing", Headcount: "200" },
    },
    () => ({ status: 500, message: "no judge yet" }),
  );
  const { runId, rowIds } = await addRows(t.app, b.baseId, ["Acme", "Globex"]);
  await waitRun(t.app, runId!, (r) => r.status === "done", "the first run");
  base = { ...b, rowIds };
  await register(t.app, hooks.receiver, { events: ["cell.changed", "schedule.completed"], baseId: b.baseId });
  const s = await createSchedule(t.app, b.baseId, { every: "1d", materiality: "model", name: "Leaders" });
  expect(s.materiality).toBe("model");
  scheduleId = s.id;
});

async function execute() {
  const res = await t.app.api("POST", `/api/v1/bases/${base.baseId}/schedules/${scheduleId}/trigger`);
  expect(res.status, res.text).toBe(202);
  return waitRun(t.app, res.body.run.id, (r) => r.status === "done", "the scheduled run");
}

const expanded = async (rowId: string) =>
  (await t.app.api("GET", `/api/v1/bases/${base.baseId}/rows/${rowId}?expand=true`)).body.cells;
const judgments = (runStart: Date) =>
  t.app.rt.db.prisma.creditEntry.findMany({ where: { reason: "change_judged", createdAt: { gte: runStart } } });
const deliveriesOf = (type: string) =>
  [...hooks.receiver.processed.values()].filter((d) => d.payload?.type === type).map((d) => d.payload.data);

describe('materiality "model"', () => {
  it("announces a material text change with the model's reason, records a rewording quietly, and charges each judgment", async () => {
    const [acme, globex] = base.rowIds;
    const start = new Date();
    script(
      {
        Acme: { Title: "Chief Revenue Officer", Headcount: "150" },
        Globex: { Title: "Marketing Head", Headcount: "200.0" },
      },
      (shown) =>
        shown.includes("Chief Revenue Officer")
          ? { json: { material: true, reason: "The role changed from VP of Sales to CRO." } }
          : { json: { material: false, reason: "Same role, reworded." } },
    );
    const run = await execute();
    // Two text changes judged; the numbers (150 changed, 200.0 the same) never.
    expect(judged).toHaveLength(2);
    expect(judged.join("\n")).toContain("VP of Sales");
    expect((await judgments(start)).map((e) => e.amount)).toEqual([-1, -1]);
    expect(run.creditsSpent).toBe(4 + 2);

    const [acmeCells, globexCells] = [await expanded(acme), await expanded(globex)];
    expect(acmeCells.Title.changedAt).toBeTruthy();
    expect(acmeCells.Headcount.changedAt).toBeTruthy();
    expect(globexCells.Title.value).toBe("Marketing Head");
    expect(globexCells.Title.changedAt).toBeUndefined();
    const history = await t.app.api(
      "GET",
      `/api/v1/bases/${base.baseId}/rows/${globex}/history?columnId=${base.col.Title}`,
    );
    expect(history.body.entries[0]).toMatchObject({
      kind: "answer",
      before: { value: "Head of Marketing" },
      after: { value: "Marketing Head" },
      reason: "not material: Same role, reworded.",
    });

    const [completed] = await processed(hooks.receiver, 3, 20_000).then(() => deliveriesOf("schedule.completed"));
    expect(completed.counts).toEqual({ checked: 4, changed: 2, unchanged: 2, failed: 0, credits: 6 });
    const changed = deliveriesOf("cell.changed").map((d) => [d.rowId, d.columnId, d.after, d.reason]);
    expect(changed).toEqual(
      expect.arrayContaining([
        [acme, base.col.Title, "Chief Revenue Officer", "The role changed from VP of Sales to CRO."],
        [acme, base.col.Headcount, "150", "The value changed, compared as number."],
      ]),
    );
    expect(changed).toHaveLength(2);
  });

  it("a judge that fails announces the change as its type compares it, uncharged", async () => {
    judged.length = 0;
    const start = new Date();
    const { globex } = { globex: base.rowIds[1] };
    script(
      {
        Acme: { Title: "Chief Revenue Officer", Headcount: "150" },
        Globex: { Title: "Chief Marketing Officer", Headcount: "200" },
      },
      () => ({ status: 400, message: "the judge is down" }),
    );
    const run = await execute();
    expect(judged).toHaveLength(1);
    expect(await judgments(start)).toEqual([]);
    expect(run.creditsSpent).toBe(4);
    expect((await expanded(globex)).Title.changedAt).toBeTruthy();
    const history = await t.app.api(
      "GET",
      `/api/v1/bases/${base.baseId}/rows/${globex}/history?columnId=${base.col.Title}`,
    );
    expect(history.body.entries[0].reason).toMatch(/^material: The value changed; the model could not judge/);
  });

  it("is refused for a find schedule, and no other run is judged", async () => {
    const bad = await t.app.api("POST", `/api/v1/bases/${base.baseId}/schedules`, {
      body: {
        every: "1d",
        behavior: "find",
        materiality: "model",
        find: { query: "B2B startups", criteria: ["Sells software"], count: 5 },
      },
    });
    expect([bad.status, bad.body.error.code, bad.body.error.details?.field]).toEqual([
      400,
      "invalid_schedule",
      "materiality",
    ]);
    const unknown = await t.app.api("POST", `/api/v1/bases/${base.baseId}/schedules`, {
      body: { every: "1d", materiality: "maybe" },
    });
    expect(unknown.status).toBe(400);
    judged.length = 0;
    script(
      {
        Acme: { Title: "Founder", Headcount: "150" },
        Globex: { Title: "Chief Marketing Officer", Headcount: "200" },
      },
      () => ({ json: { material: true, reason: "unexpected" } }),
    );
    const plain = await t.app.api("POST", `/api/v1/bases/${base.baseId}/run`, {
      body: { columnIds: [base.col.Title] },
    });
    await waitRun(t.app, plain.body.runId, (r) => r.status === "done", "a plain run");
    expect(judged).toEqual([]);
  });
});
