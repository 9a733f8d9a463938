import { describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { startWebhookReceiver } from "../support/webhook-receiver.ts";
import { waitFor } from "../support/wait.ts";
import { clearEndpoints, processed, register, startRelay } from "../webhooks/helpers.ts";
import { addRows, expandedRows, settled, useEngineApp } from "./helpers.ts";
import { addRowsRun, waitRun } from "./runs-helpers.ts";

// Run conditions (runIf): a row the condition leaves out gets a skipped cell, decided before any
// model call; the columns it names are dependencies, and writing them re-checks it.

const t = useEngineApp({ AI_CONCURRENCY: "4", ALLOWED_PRIVATE_HOSTS: "127.0.0.1,::1" }, { credits: 1_000 });

const onlyWithoutEmail = {
  and: [
    { column: "Email", op: "isEmpty" },
    { column: "Website", op: "isNotEmpty" },
  ],
};
const columns = (runIf: unknown = onlyWithoutEmail, autoRun = "always") => [
  { name: "Company", type: "short-text", isPrimary: true },
  { name: "Email", type: "short-text" },
  { name: "Website", type: "url" },
  {
    name: "Found",
    isAiEnabled: true,
    inputColumns: ["Company", "Website"],
    instructions: "Find an email.",
    runIf,
    columnOptions: { autoRun },
  },
];
const answer = () => ({ json: { value: "hi@acme.test", sources: [], confidenceScore: 0.9 } });
const ledger = (workspaceId: string) =>
  t.app.rt.db.prisma.creditEntry.findMany({ where: { workspaceId, reason: "cell_run" } });
const asked = (column: string) =>
  t.llm.requests.filter((r) => r.lastUserText.includes(`Column to fill: ${column}`)).length;

describe("runIf", () => {
  it("skips a row that does not match: no model call, no charge; the row settles and its webhook fires", async () => {
    const relay = await startRelay(t.app);
    const receiver = await startWebhookReceiver();
    try {
      await register(t.app, receiver);
      const { baseId, col } = await createBase(t.app, { columns: columns() });
      const structure = await t.app.api("GET", `/api/v1/bases/${baseId}/base-structure`);
      const found = structure.body.sheetColumns.find((c: { name: string }) => c.name === "Found");
      // Stored and given back with ids, in a form a client can send again.
      expect(found.runIf).toEqual({
        and: [
          { column: col.Email, op: "isEmpty" },
          { column: col.Website, op: "isNotEmpty" },
        ],
      });
      t.llm.setHandler(answer);
      const before = (await ledger(t.app.workspaceA)).length;
      const { runId } = await addRowsRun(t.app, baseId, [
        { Company: "Has email", Email: "x@y.test", Website: "https://a.test" },
        { Company: "Needs one", Website: "https://b.test" },
      ]);
      const run = await waitRun(t.app, runId, (r) => r.status === "done", "the run to finish");
      expect(run.counts).toMatchObject({ pending: 0, running: 0, done: 1, skipped: 1 });
      expect(run.creditsSpent).toBe(1);
      const rows = await expandedRows(t.app, baseId);
      expect(rows[0].cells.Found).toMatchObject({ value: "", status: "skipped", needsReview: false });
      expect(rows[0].cells.Found.metadata.additionalDetails).toMatch(/run condition/);
      expect(rows[1].cells.Found).toMatchObject({ value: "hi@acme.test", status: "done" });
      expect(asked("Found")).toBe(1);
      expect(t.llm.requests[0].lastUserText).toContain("Needs one");
      expect((await ledger(t.app.workspaceA)).length - before).toBe(1);
      await processed(receiver, 2);
      const skipped = receiver.received.find((d) => d.payload.data.row.id === rows[0].id);
      expect(skipped?.payload.data.row.cells.Found).toBe("");

      // Filter by the new status, with the same grammar.
      const q = await t.app.api("POST", `/api/v1/bases/${baseId}/rows/query`, {
        body: { filter: { column: "Found", status: "skipped" } },
      });
      expect(q.status, q.text).toBe(200);
      expect(q.body.rows.map((r: { id: string }) => r.id)).toEqual([rows[0].id]);
    } finally {
      await clearEndpoints(t.app, [receiver]);
      await relay.stop();
    }
  });

  it("waits for an AI column its condition names, then decides on its value", async () => {
    const { baseId } = await createBase(t.app, {
      columns: [
        { name: "Company", isPrimary: true },
        { name: "Tier", isAiEnabled: true, inputColumns: ["Company"], instructions: "A or B." },
        {
          name: "Deep",
          isAiEnabled: true,
          inputColumns: ["Company"],
          instructions: "Research.",
          runIf: { column: "Tier", op: "eq", value: "A" },
        },
      ],
    });
    t.llm.setHandler((req) => {
      if (req.lastUserText.includes("Column to fill: Tier"))
        return {
          json: { value: req.lastUserText.includes("Big") ? "A" : "B", sources: [], confidenceScore: 1 },
          delayMs: 300,
        };
      return { json: { value: "deep", sources: [], confidenceScore: 1 } };
    });
    await addRows(t.app, baseId, [{ Company: "Big" }, { Company: "Small" }]);
    const rows = await settled(t.app, baseId);
    expect(rows[0].cells.Deep).toMatchObject({ status: "done", value: "deep" });
    expect(rows[1].cells.Deep).toMatchObject({ status: "skipped", value: "" });
    // Deep never started before Tier had answered: each Deep request came after both Tier ones.
    const order = t.llm.requests.map((r) => /Column to fill: (\w+)/.exec(r.lastUserText)?.[1]);
    expect(order).toEqual(["Tier", "Tier", "Deep"]);
  });

  it("re-checks on Update Rows: skipped runs once the row matches, done becomes skipped (always) or stale (onInsert)", async () => {
    const always = await createBase(t.app, { columns: columns() });
    const onInsert = await createBase(t.app, { columns: columns(onlyWithoutEmail, "onInsert") });
    t.llm.setHandler(answer);
    for (const base of [always, onInsert])
      await addRows(t.app, base.baseId, [
        { Company: "A", Email: "a@a.test", Website: "https://a.test" },
        { Company: "B", Website: "https://b.test" },
      ]);
    const [a1, b1] = await settled(t.app, always.baseId);
    const [a2, b2] = await settled(t.app, onInsert.baseId);
    expect([a1.cells.Found.status, b1.cells.Found.status]).toEqual(["skipped", "done"]);
    t.llm.reset();
    t.llm.setHandler(answer);
    const update = (baseId: string, rows: { id: string; cells: Record<string, string> }[]) =>
      t.app.api("POST", `/api/v1/bases/${baseId}/update-rows`, { body: { rows } });
    // Writing the same value changes nothing.
    await update(always.baseId, [{ id: a1.id, cells: { Email: "a@a.test" } }]);
    expect((await settled(t.app, always.baseId))[0].cells.Found.status).toBe("skipped");
    expect(t.llm.totalRequests).toBe(0);

    await update(always.baseId, [
      { id: a1.id, cells: { Email: "" } },
      { id: b1.id, cells: { Email: "b@b.test" } },
    ]);
    const [a1After, b1After] = await settled(t.app, always.baseId);
    expect(a1After.cells.Found).toMatchObject({ status: "done", value: "hi@acme.test" });
    expect(b1After.cells.Found).toMatchObject({ status: "skipped", value: "" });
    expect(asked("Found")).toBe(1);

    await update(onInsert.baseId, [{ id: b2.id, cells: { Email: "b@b.test" } }]);
    const [, b2After] = await settled(t.app, onInsert.baseId);
    expect(b2After.cells.Found).toMatchObject({ status: "done", value: "hi@acme.test", stale: true });
    expect(a2.cells.Found.status).toBe("skipped");
    expect(asked("Found")).toBe(1);
  });

  it("counts a run of only skipped cells as finished, charging nothing", async () => {
    const { baseId } = await createBase(t.app, { columns: columns() });
    const before = (await ledger(t.app.workspaceA)).length;
    const { runId } = await addRowsRun(t.app, baseId, [{ Company: "A", Email: "a@a.test" }, { Company: "B" }]);
    const run = await waitRun(t.app, runId, (r) => r.status === "done", "the run to finish");
    expect(run).toMatchObject({ creditsSpent: 0, counts: { pending: 0, running: 0, done: 0, skipped: 2 } });
    expect(run.finishedAt).not.toBeNull();
    expect(t.llm.totalRequests).toBe(0);
    expect((await ledger(t.app.workspaceA)).length).toBe(before);
  });

  it("runs as before when the condition holds, and null removes the condition", async () => {
    const { baseId, col } = await createBase(t.app, { columns: columns({ column: "Email", op: "isEmpty" }) });
    t.llm.setHandler(answer);
    await addRows(t.app, baseId, [{ Company: "A", Email: "a@a.test" }, { Company: "B" }]);
    const rows = await settled(t.app, baseId);
    expect(rows.map((r) => r.cells.Found.status)).toEqual(["skipped", "done"]);
    const cleared = await t.app.api("PATCH", `/api/v1/bases/${baseId}/columns/${col.Found}`, { body: { runIf: null } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.runIf).toBeNull();
    const run = await t.app.api("POST", `/api/v1/bases/${baseId}/run`, { body: { statuses: ["skipped"] } });
    expect(run.body.queued).toBe(1);
    const after = await waitFor(async () => {
      const r = await expandedRows(t.app, baseId);
      return r[0].cells.Found.status === "done" ? r : undefined;
    }, "the skipped cell to run");
    expect(after[0].cells.Found.value).toBe("hi@acme.test");
  });
});

describe("runIf validation", () => {
  it("takes a condition naming a later column of a new base, as inputs may", async () => {
    const { col, structure } = await createBase(t.app, {
      columns: [
        { name: "Company", isPrimary: true },
        { name: "Deep", isAiEnabled: true, runIf: { column: "Tier", op: "eq", value: "A" } },
        { name: "Tier", isAiEnabled: true, inputColumns: ["Company"] },
      ],
    });
    const deep = structure.sheetColumns.find((c: { name: string }) => c.name === "Deep");
    expect(deep.runIf).toEqual({ column: col.Tier, op: "eq", value: "A" });
  });

  it("refuses bad conditions with stable codes and changes nothing", async () => {
    const { baseId, col } = await createBase(t.app, { columns: columns(null) });
    const patch = (columnId: string, body: unknown) =>
      t.app.api("PATCH", `/api/v1/bases/${baseId}/columns/${columnId}`, { body });
    const cases: [string, unknown, string, string][] = [
      ["unknown column", { column: "Nope", op: "isEmpty" }, col.Found, "unknown_column"],
      ["operator the type cannot take", { column: "Email", op: "gt", value: 3 }, col.Found, "invalid_filter"],
      ["not a node", { column: "Email", op: "isEmpty", extra: 1 }, col.Found, "invalid_filter"],
      ["not an object", "Email is empty", col.Found, "validation_failed"],
      ["a column that is not generated", { column: "Company", op: "isEmpty" }, col.Email, "invalid_run_if"],
      ["the column's own status", { column: "Found", status: "done" }, col.Found, "invalid_run_if"],
      ["a state of a plain column", { column: "Email", status: "done" }, col.Found, "invalid_filter"],
    ];
    for (const [name, runIf, columnId, code] of cases) {
      const res = await patch(columnId, { runIf, instructions: "changed" });
      expect(res.status, name).toBe(400);
      expect(res.body.error.code, name).toBe(code);
    }
    const structure = await t.app.api("GET", `/api/v1/bases/${baseId}/base-structure`);
    for (const c of structure.body.sheetColumns) expect(c.runIf).toBeNull();
    expect(structure.body.sheetColumns.find((c: { name: string }) => c.name === "Found").instructions).toBe(
      "Find an email.",
    );
    // A condition on another AI column that itself reads this one is a cycle.
    const other = await t.app.api("POST", `/api/v1/bases/${baseId}/columns`, {
      body: { name: "Other", isAiEnabled: true, inputColumns: ["Found"] },
    });
    const cycle = await patch(col.Found, { runIf: { column: "Other", status: "done" } });
    expect(cycle.status).toBe(409);
    expect(cycle.body.error.code).toBe("dependency_cycle");
    // A rename keeps the condition (it holds ids); deleting a column it names needs force and drops it.
    expect((await patch(col.Found, { runIf: { column: "Email", op: "isEmpty" } })).status).toBe(200);
    expect((await patch(col.Email, { name: "Mail" })).status).toBe(200);
    const renamed = await t.app.api("GET", `/api/v1/bases/${baseId}/base-structure`);
    const found = renamed.body.sheetColumns.find((c: { name: string }) => c.name === "Found");
    expect(found.runIf).toEqual({ column: col.Email, op: "isEmpty" });
    const refused = await t.app.api("DELETE", `/api/v1/bases/${baseId}/columns/${col.Email}`);
    expect(refused.body.error?.code).toBe("column_in_use");
    expect(other.status).toBe(201);
    const forced = await t.app.api("DELETE", `/api/v1/bases/${baseId}/columns/${col.Email}?force=true`);
    expect(forced.status, forced.text).toBe(200);
    const last = await t.app.api("GET", `/api/v1/bases/${baseId}/base-structure`);
    expect(last.body.sheetColumns.find((c: { name: string }) => c.name === "Found").runIf).toBeNull();
  });
});
