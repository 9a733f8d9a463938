import { describe, expect, it } from "vitest";
import { planInsert, planUpdate } from "../../lib/domain/cell-plan.ts";
import type { ColumnRecord } from "../../lib/domain/column-model.ts";

// Which AI cells run when rows are written: spec §4.4 rules plus the autoRun option.

let n = 0;
function col(id: string, o: { ai?: boolean; inputs?: string[]; autoRun?: string } = {}): ColumnRecord {
  return {
    id,
    sheetId: "sheet_1",
    position: n++,
    name: id,
    nameKey: id,
    type: "short-text",
    isAiEnabled: o.ai ?? false,
    isPrimary: false,
    inputColumnIds: o.inputs ?? [],
    tools: [],
    instructions: "",
    fill: null,
    columnOptions: o.autoRun ? { autoRun: o.autoRun } : {},
    configVersion: 1,
    calibration: null,
    runIf: null,
    writerColumnIds: [],
    createdAt: new Date(),
    updatedAt: new Date(),
  } as ColumnRecord;
}

const name = col("name");
const site = col("site");
const summary = col("summary", { ai: true, inputs: ["name", "site"] });
const score = col("score", { ai: true, inputs: ["summary"] });
const manual = col("manual", { ai: true, inputs: ["name"], autoRun: "never" });
const onInsert = col("onInsert", { ai: true, inputs: ["name"], autoRun: "onInsert" });
const columns = [name, site, summary, score, manual, onInsert];
const ai = columns.filter((c) => c.isAiEnabled);

describe("planInsert (Add Rows)", () => {
  it("runs every absent AI cell, keeps supplied ones, and leaves autoRun=never idle", () => {
    const plan = planInsert(ai, new Set(["name", "summary"]));
    expect(Object.fromEntries(plan)).toEqual({
      summary: "supplied",
      score: "pending",
      manual: "idle",
      onInsert: "pending",
    });
  });

  it("a supplied value wins even for autoRun=never", () => {
    expect(planInsert(ai, new Set(["manual"])).get("manual")).toBe("supplied");
  });

  it("plans nothing without AI columns", () => {
    expect(planInsert([], new Set(["name"])).size).toBe(0);
  });
});

describe("planUpdate (Update Rows)", () => {
  const written = (o: Record<string, string>) => new Map(Object.entries(o));

  it("a changed input re-runs the AI columns downstream of it, transitively, when autoRun is always", () => {
    const plan = planUpdate(columns, written({ site: "x.com" }), new Set(["site"]));
    expect(plan.supplied).toEqual([]);
    expect(plan.rerun.sort()).toEqual(["score", "summary"]);
  });

  it("onInsert and never columns do not re-run on changes", () => {
    const plan = planUpdate(columns, written({ name: "New" }), new Set(["name"]));
    expect(plan.rerun.sort()).toEqual(["score", "summary"]);
  });

  it("an unchanged value re-runs nothing", () => {
    expect(planUpdate(columns, written({ name: "Same" }), new Set())).toEqual({ supplied: [], rerun: [] });
  });

  it("writing a value into an AI cell keeps it as the user's, and its dependents re-run", () => {
    const plan = planUpdate(columns, written({ summary: "by hand" }), new Set(["summary"]));
    expect(plan.supplied).toEqual(["summary"]);
    expect(plan.rerun).toEqual(["score"]);
  });

  it('writing "" into an AI cell runs it again, and its dependents too', () => {
    const plan = planUpdate(columns, written({ summary: "" }), new Set(["summary"]));
    expect(plan.supplied).toEqual([]);
    expect(plan.rerun.sort()).toEqual(["score", "summary"]);
  });

  it('writing "" into an autoRun=never cell still runs it (an explicit request)', () => {
    expect(planUpdate(columns, written({ manual: "" }), new Set(["manual"])).rerun).toEqual(["manual"]);
  });

  it("a cell written in the same request is not re-run because of an upstream change", () => {
    const plan = planUpdate(columns, written({ name: "N", summary: "kept" }), new Set(["name", "summary"]));
    expect(plan.supplied).toEqual(["summary"]);
    expect(plan.rerun).toEqual(["score"]);
  });
});
