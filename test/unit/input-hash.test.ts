import { describe, expect, it } from "vitest";
import { inputHash } from "../../lib/domain/input-hash.ts";
import { decideByHash } from "../../lib/domain/cell-plan.ts";
import type { ColumnRecord } from "../../lib/domain/column-model.ts";

// The hash rule: what an AI cell is generated from, and which dependents Update Rows re-runs.

const col = (id: string, extra: Partial<ColumnRecord> = {}): ColumnRecord =>
  ({
    id,
    name: id,
    isAiEnabled: false,
    isPrimary: false,
    inputColumnIds: [],
    tools: [],
    instructions: "",
    columnOptions: {},
    type: "short-text",
    ...extra,
  }) as ColumnRecord;

const company = col("company", { isPrimary: true });
const industry = col("industry", { isAiEnabled: true, inputColumnIds: ["company"], instructions: "The industry." });
const pitch = col("pitch", { isAiEnabled: true, inputColumnIds: ["industry"], instructions: "A pitch." });
const notes = col("notes");
const columns = [company, notes, industry, pitch];

describe("inputHash", () => {
  it("changes with input values, instructions, tools and model, and not with names, type or unrelated values", () => {
    const h = inputHash(industry, "company", { company: "Acme", notes: "x" });
    expect(inputHash(industry, "company", { company: "Acme", notes: "y" })).toBe(h);
    expect(
      inputHash({ ...industry, name: "Sector", type: "long-text" } as ColumnRecord, "company", { company: "Acme" }),
    ).toBe(h);
    expect(inputHash(industry, "company", { company: "Globex" })).not.toBe(h);
    expect(inputHash({ ...industry, instructions: "The sector." }, "company", { company: "Acme" })).not.toBe(h);
    expect(inputHash({ ...industry, tools: ["web-search"] }, "company", { company: "Acme" })).not.toBe(h);
    expect(
      inputHash({ ...industry, columnOptions: { model: "openai:gpt-4.1-mini" } }, "company", { company: "Acme" }),
    ).not.toBe(h);
  });
});

describe("inputHash with a run condition", () => {
  const values = { company: "Acme", notes: "x" };
  const conditioned = { ...industry, runIf: { column: "notes", op: "isEmpty" } } as ColumnRecord;

  it("is the hash of before when there is none, and changes with the condition and the values it reads", () => {
    expect(inputHash({ ...industry, runIf: null } as ColumnRecord, "company", values)).toBe(
      inputHash(industry, "company", values),
    );
    const h = inputHash(conditioned, "company", values);
    expect(h).not.toBe(inputHash(industry, "company", values));
    expect(inputHash(conditioned, "company", { ...values, notes: "y" })).not.toBe(h);
    const other = { ...conditioned, runIf: { column: "notes", op: "isNotEmpty" } } as ColumnRecord;
    expect(inputHash(other, "company", values)).not.toBe(h);
  });

  it("keeps a skipped cell whose hash is unchanged, and re-plans it when a value its condition reads changed", () => {
    const cols = [company, notes, conditioned];
    const next = { company: "Acme", notes: "x" };
    const stored = { status: "skipped", inputHash: inputHash(conditioned, "company", next) };
    const same = decideByHash(cols, new Map([["notes", "x"]]), new Set(["notes"]), next, () => stored);
    expect(same).toEqual({ rerun: [], stale: [] });
    const changed = { company: "Acme", notes: "" };
    const again = decideByHash(cols, new Map([["notes", ""]]), new Set(["notes"]), changed, () => stored);
    expect(again).toEqual({ rerun: ["industry"], stale: [] });
  });
});

describe("decideByHash", () => {
  const done = (hash: string | null) => ({ status: "done", inputHash: hash });

  it("leaves a dependent alone when its hash is unchanged, and re-runs it when it changed", () => {
    const next = { company: "Acme" };
    const hashes: Record<string, string> = {
      industry: inputHash(industry, "company", next),
      pitch: inputHash(pitch, "company", next),
    };
    const unchanged = decideByHash(columns, new Map([["company", "Acme"]]), new Set(["company"]), next, (id) =>
      done(hashes[id]),
    );
    expect(unchanged.rerun).toEqual([]);
    const changed = decideByHash(columns, new Map([["company", "Acme"]]), new Set(["company"]), next, () =>
      done("old"),
    );
    // Pitch reads Industry, which runs again: it cannot be judged yet, so it runs too.
    expect(changed.rerun.sort()).toEqual(["industry", "pitch"]);
  });

  it("marks onInsert and never dependents stale instead, and an explicit empty write always re-runs", () => {
    const lazy = [company, { ...industry, columnOptions: { autoRun: "onInsert" } } as ColumnRecord];
    const d = decideByHash(lazy, new Map([["company", "B"]]), new Set(["company"]), { company: "B" }, () =>
      done("old"),
    );
    expect(d).toEqual({ rerun: [], stale: ["industry"] });
    const explicit = decideByHash(columns, new Map([["industry", ""]]), new Set(["industry"]), { company: "A" }, () =>
      done("old"),
    );
    expect(explicit.rerun.sort()).toEqual(["industry", "pitch"]);
  });
});
