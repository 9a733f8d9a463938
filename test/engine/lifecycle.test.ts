import { describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { addRows, expandedRows, settled, useEngineApp } from "./helpers.ts";

const t = useEngineApp({ AI_CONCURRENCY: "4" });

const chain = [
  { name: "Company", type: "short-text", isPrimary: true },
  { name: "Industry", type: "short-text", isAiEnabled: true, inputColumns: ["Company"], instructions: "The industry." },
  {
    name: "Pitch",
    type: "long-text",
    isAiEnabled: true,
    inputColumns: ["Industry"],
    instructions: "A one-line pitch.",
  },
  { name: "Score", type: "number", isAiEnabled: true, inputColumns: ["Pitch"], instructions: "Score 1-10." },
];

describe("cell lifecycle and the DAG", () => {
  it("runs a chain of three AI columns in order, each prompt seeing its input's value", async () => {
    const { baseId } = await createBase(t.app, { columns: chain });
    t.llm.setHandler((req) => {
      const text = req.lastUserText;
      if (text.includes("Column to fill: Industry"))
        return { json: { value: "Rockets", sources: [], confidenceScore: 0.8, additionalDetails: "known" } };
      if (text.includes("Column to fill: Pitch"))
        return {
          json: {
            value: `Pitch about ${text.includes("Rockets") ? "Rockets" : "?"}`,
            sources: [],
            confidenceScore: 0.7,
          },
        };
      if (text.includes("Column to fill: Score"))
        return { json: { value: text.includes("Pitch about Rockets") ? "9" : "1", sources: [], confidenceScore: 0.6 } };
      return undefined;
    });
    await addRows(t.app, baseId, [{ Company: "Acme" }]);
    const [row] = await settled(t.app, baseId);
    expect(row.cells.Industry).toMatchObject({ value: "Rockets", status: "done" });
    expect(row.cells.Industry.metadata).toEqual({ sources: null, confidenceScore: 0.8, additionalDetails: "known" });
    expect(row.cells.Pitch.value).toBe("Pitch about Rockets");
    expect(row.cells.Score.value).toBe("9");
    const order = t.llm.requests.map((r) => /Column to fill: (\w+)/.exec(r.lastUserText)?.[1]);
    expect(order).toEqual(["Industry", "Pitch", "Score"]);
  });

  it("keeps supplied AI values and runs absent or empty ones (spec 4.4)", async () => {
    const { baseId } = await createBase(t.app, { columns: chain.slice(0, 2) });
    const rows = await addRows(t.app, baseId, [
      { Company: "A", Industry: "Given" },
      { Company: "B", Industry: "" },
      { Company: "C" },
    ]);
    expect(rows[0].cells.Industry).toBe("Given");
    const done = await settled(t.app, baseId);
    expect(done[0].cells.Industry).toMatchObject({
      value: "Given",
      status: "done",
      metadata: { suppliedByUser: true },
    });
    expect(done[1].cells.Industry.status).toBe("done");
    expect(done[1].cells.Industry.value).not.toBe("");
    expect(done[2].cells.Industry.status).toBe("done");
    expect(t.llm.requests).toHaveLength(2);
  });

  it("runs independent cells of a row in parallel", async () => {
    const { baseId } = await createBase(t.app, {
      columns: [
        { name: "Company", isPrimary: true },
        { name: "A", isAiEnabled: true, inputColumns: ["Company"] },
        { name: "B", isAiEnabled: true, inputColumns: ["Company"] },
        { name: "C", isAiEnabled: true, inputColumns: ["Company"] },
      ],
    });
    t.llm.setHandler(() => ({ json: { value: "x", sources: [], confidenceScore: 1 }, delayMs: 300 }));
    await addRows(t.app, baseId, [{ Company: "Acme" }]);
    await settled(t.app, baseId);
    expect(t.llm.maxInFlight).toBe(3);
  });

  it("never exceeds AI_CONCURRENCY", async () => {
    const { baseId } = await createBase(t.app, {
      columns: [
        { name: "Company", isPrimary: true },
        { name: "A", isAiEnabled: true, inputColumns: ["Company"] },
      ],
    });
    t.llm.setHandler(() => ({ json: { value: "x", sources: [], confidenceScore: 1 }, delayMs: 60 }));
    await addRows(
      t.app,
      baseId,
      Array.from({ length: 20 }, (_, i) => ({ Company: `C${i}` })),
    );
    await settled(t.app, baseId);
    expect(t.llm.totalRequests).toBe(20);
    expect(t.llm.maxInFlight).toBe(4);
  });

  it("fails dependents with input_failed when an input cell fails", async () => {
    const { baseId } = await createBase(t.app, { columns: chain });
    t.llm.setHandler((req) =>
      req.lastUserText.includes("Column to fill: Industry") ? { status: 400, message: "bad request" } : undefined,
    );
    await addRows(t.app, baseId, [{ Company: "Acme" }]);
    const [row] = await settled(t.app, baseId);
    expect(row.cells.Industry.status).toBe("error");
    expect(row.cells.Industry.error?.code).toBe("ai_provider_error");
    expect(row.cells.Pitch.error?.code).toBe("input_failed");
    expect(row.cells.Score.error?.code).toBe("input_failed");
    expect(t.llm.requests).toHaveLength(1);
  });
});

describe("re-runs", () => {
  it("re-runs dependents when an input changes, unless autoRun says otherwise", async () => {
    const { baseId } = await createBase(t.app, {
      columns: [
        { name: "Company", isPrimary: true },
        { name: "Auto", isAiEnabled: true, inputColumns: ["Company"] },
        { name: "OnInsert", isAiEnabled: true, inputColumns: ["Company"], columnOptions: { autoRun: "onInsert" } },
        { name: "Never", isAiEnabled: true, inputColumns: ["Company"], columnOptions: { autoRun: "never" } },
        { name: "Downstream", isAiEnabled: true, inputColumns: ["Auto"] },
      ],
    });
    const [row] = await addRows(t.app, baseId, [{ Company: "Acme" }]);
    let [after] = await settled(t.app, baseId);
    expect(after.cells.Never.status).toBe("idle");
    expect(after.cells.OnInsert.status).toBe("done");
    t.llm.reset();
    const upd = await t.app.api("POST", `/api/v1/bases/${baseId}/update-rows`, {
      body: { rows: [{ id: row.id, cells: { Company: "Globex" } }] },
    });
    expect(upd.body.errors).toEqual([]);
    [after] = await settled(t.app, baseId);
    const ran = t.llm.requests.map((r) => /Column to fill: (\w+)/.exec(r.lastUserText)?.[1]).sort();
    expect(ran).toEqual(["Auto", "Downstream"]);
    expect(after.cells.Auto.value).toContain("Globex");
  });

  it("stores a written AI value as the user's and re-runs a cell written as empty", async () => {
    const { baseId } = await createBase(t.app, { columns: chain.slice(0, 2) });
    const [row] = await addRows(t.app, baseId, [{ Company: "Acme" }]);
    await settled(t.app, baseId);
    t.llm.reset();
    await t.app.api("POST", `/api/v1/bases/${baseId}/update-rows`, {
      body: { rows: [{ id: row.id, cells: { Industry: "Mine" } }] },
    });
    let [after] = await settled(t.app, baseId);
    expect(after.cells.Industry).toMatchObject({ value: "Mine", metadata: { suppliedByUser: true } });
    expect(t.llm.requests).toHaveLength(0);
    await t.app.api("POST", `/api/v1/bases/${baseId}/update-rows`, {
      body: { rows: [{ id: row.id, cells: { Industry: "" } }] },
    });
    [after] = await settled(t.app, baseId);
    expect(t.llm.requests).toHaveLength(1);
    expect(after.cells.Industry.metadata.suppliedByUser).toBeUndefined();
  });

  it("runs exactly the requested cells through the run API, and estimates without running", async () => {
    const { baseId, col } = await createBase(t.app, { columns: chain.slice(0, 2) });
    await addRows(t.app, baseId, [{ Company: "A" }, { Company: "B" }, { Company: "C" }]);
    const rows = await settled(t.app, baseId);
    t.llm.reset();
    const industry = col.Industry;
    const est = await t.app.api("POST", `/api/v1/bases/${baseId}/run/estimate`, {
      body: { columnIds: [industry], rowIds: [rows[0].id, rows[1].id] },
    });
    expect(est.body).toEqual({ cells: 2, credits: 2, balance: null, stale: 0, unchanged: 2, skipped: 0 });
    expect(t.llm.totalRequests).toBe(0);
    const run = await t.app.api("POST", `/api/v1/bases/${baseId}/run`, {
      body: { columnIds: [industry], rowIds: [rows[0].id] },
    });
    expect(run.status).toBe(202);
    expect(run.body).toEqual({ runId: expect.stringMatching(/^run_/), queued: 1 });
    await settled(t.app, baseId);
    expect(t.llm.totalRequests).toBe(1);
    const onlyEmpty = await t.app.api("POST", `/api/v1/bases/${baseId}/run/estimate`, { body: { onlyEmpty: true } });
    expect(onlyEmpty.body.cells).toBe(0);
    const bad = await t.app.api("POST", `/api/v1/bases/${baseId}/run`, { body: { columnIds: ["scol_nope"] } });
    expect(bad.status).toBe(400);
  });
});

describe("the run API without a body", () => {
  it("treats an empty body as {} but still refuses a body that is not JSON", async () => {
    const { baseId } = await createBase(t.app, { columns: chain.slice(0, 2) });
    await addRows(t.app, baseId, [{ Company: "A" }]);
    await settled(t.app, baseId);
    const empty = await t.app.api("POST", `/api/v1/bases/${baseId}/run/estimate`);
    expect(empty.status).toBe(200);
    expect(empty.body.cells).toBe(1);
    const text = await t.app.api("POST", `/api/v1/bases/${baseId}/run/estimate`, { raw: "columnIds=x" });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe("unsupported_media_type");
  });
});

describe("an AI column added to existing rows", () => {
  it("leaves existing rows idle until a run is requested", async () => {
    const { baseId } = await createBase(t.app, { columns: [{ name: "Company", isPrimary: true }] });
    await addRows(t.app, baseId, [{ Company: "Acme" }]);
    await t.app.api("POST", `/api/v1/bases/${baseId}/columns`, {
      body: { name: "Later", isAiEnabled: true, inputColumns: ["Company"] },
    });
    const [row] = await expandedRows(t.app, baseId);
    expect(row.cells.Later.status).toBe("idle");
    expect(t.llm.totalRequests).toBe(0);
  });
});
