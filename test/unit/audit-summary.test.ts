import { describe, expect, it } from "vitest";
import { draftEntry, small } from "../../lib/audit/summary.ts";

// How an endpoint's audit declaration, its path params and its answer become an entry.

describe("draftEntry", () => {
  const column = { action: "column.update", target: "column", fields: ["name", "type", "instructions"] };

  it("takes the target from the path, else the answer; the base from the path, else the answer", () => {
    expect(draftEntry(column, { baseId: "b1", columnId: "scol_1" }, { id: "other" }, {})).toMatchObject({
      targetType: "column",
      targetId: "scol_1",
      baseId: "b1",
    });
    expect(draftEntry({ action: "run.cancel", target: "run" }, { runId: "run_1" }, { baseId: "b2" }, {})).toMatchObject(
      { targetId: "run_1", baseId: "b2" },
    );
    expect(draftEntry({ action: "base.create", target: "base" }, {}, { baseId: "b3" }, {})).toMatchObject({
      targetId: "b3",
      baseId: "b3",
    });
    expect(draftEntry({ action: "key.create", target: "key" }, {}, { id: "key_1" }, {})).toMatchObject({
      targetId: "key_1",
      baseId: null,
      summary: null,
    });
  });

  it("keeps only the changed fields of an update, before and after", () => {
    const before = { name: "Notes", type: "short-text", instructions: "x", secretish: "never" };
    const after = { name: "Remarks", type: "short-text", instructions: "x", secretish: "never" };
    expect(draftEntry(column, { columnId: "c" }, after, { before })?.summary).toEqual({
      before: { name: "Notes" },
      after: { name: "Remarks" },
    });
  });

  it("keeps the declared fields of what a delete removed", () => {
    const spec = { action: "view.delete", target: "view", fields: ["name"] };
    expect(
      draftEntry(spec, { viewId: "v" }, { id: "v", deleted: true }, { before: { name: "Mine", filter: {} } }),
    ).toMatchObject({ summary: { before: { name: "Mine" } } });
  });

  it("records nothing for an optional action without a target, or when the handler says so", () => {
    const spec = { action: "run.start", target: "run", optional: true };
    expect(draftEntry(spec, { baseId: "b" }, { runId: null }, {})).toBeNull();
    expect(draftEntry(spec, { baseId: "b" }, { runId: "run_1" }, {})).toMatchObject({ targetId: "run_1" });
    expect(draftEntry({ action: "rows.delete" }, {}, {}, { skip: true })).toBeNull();
  });

  it("merges the handler's summary over the declared one", () => {
    expect(
      draftEntry({ action: "export.download", target: "base" }, { baseId: "b" }, undefined, {
        summary: { format: "csv" },
      }),
    ).toMatchObject({ targetId: "b", summary: { format: "csv" } });
  });
});

describe("small", () => {
  it("cuts long text and replaces large values by their size", () => {
    expect(small("a".repeat(250))).toBe(`${"a".repeat(200)}… (250 characters)`);
    expect(small({ big: "b".repeat(1200) })).toMatch(/^\(\d+ characters of JSON\)$/);
    expect(small(["x", 1])).toEqual(["x", 1]);
    expect(small(null)).toBeNull();
  });
});
