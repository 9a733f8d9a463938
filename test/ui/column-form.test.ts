import { describe, expect, it } from "vitest";
import { ApiError } from "../../components/data/api.ts";
import type { ColumnView } from "../../components/data/types.ts";
import { fieldErrors, formFor, requestBody } from "../../components/grid/dialogs/column-form.ts";
import { STEP_TEMPLATES, WATERFALL_TEMPLATE } from "../../components/grid/dialogs/fill-templates.ts";
import {
  draftOf,
  fillOfDraft,
  moveStep,
  newStep,
  removeStep,
  settingsError,
  StepSettingsError,
  stepIndexOf,
  updateStep,
} from "../../components/grid/dialogs/waterfall-steps-model.ts";

const STORED = {
  kind: "waterfall",
  steps: [
    { kind: "tool", label: "Guess", tool: "email-enrichment", input: { name: "{{Name}}" }, minConfidence: 0.2 },
    { kind: "http", label: "Provider", request: { method: "GET", url: "https://p.example/{{Domain}}" }, extract: "e" },
    { kind: "formula", expression: "Name" },
  ],
};

const column = (fill: unknown) =>
  ({
    name: "Email",
    type: "short-text",
    tools: [],
    inputColumnIds: [],
    columnOptions: {},
    fill,
  }) as unknown as ColumnView;

describe("the waterfall steps editor's list", () => {
  it("shows a column's steps as cards and sends them back unchanged", () => {
    const draft = draftOf(STORED);
    expect(draft.steps.map((s) => [s.kind, s.label])).toEqual([
      ["tool", "Guess"],
      ["http", "Provider"],
      ["formula", ""],
    ]);
    expect(JSON.parse(draft.steps[1].settings)).toEqual({ request: STORED.steps[1].request, extract: "e" });
    expect(new Set(draft.steps.map((s) => s.id)).size).toBe(3);
    expect(fillOfDraft(draft)).toEqual(STORED);
  });

  it("starts a new waterfall from the template, and a new step from its kind's template", () => {
    expect(fillOfDraft(draftOf(null))).toEqual({ ...WATERFALL_TEMPLATE, kind: "waterfall" });
    for (const kind of ["http", "tool", "ai", "formula"] as const) {
      const step = newStep(kind);
      expect(step.kind).toBe(kind);
      expect(fillOfDraft({ steps: [step], rest: {} }).steps).toEqual([STEP_TEMPLATES[kind]]);
    }
  });

  it("moves, removes and edits steps by position and id", () => {
    const list = ["a", "b", "c", "d"];
    expect(moveStep(list, 3, 0)).toEqual(["d", "a", "b", "c"]);
    expect(moveStep(list, 0, 2)).toEqual(["b", "c", "a", "d"]);
    expect(moveStep(list, 1, 2)).toEqual(["a", "c", "b", "d"]);
    expect(moveStep(list, 0, -1)).toEqual(list);
    expect(moveStep(list, 3, 4)).toEqual(list);
    expect(list).toEqual(["a", "b", "c", "d"]);
    const draft = draftOf(STORED);
    const [guess, provider, formula] = draft.steps;
    const edited = updateStep(removeStep(draft.steps, guess.id), formula.id, { label: "Free" });
    const moved = { ...draft, steps: moveStep(edited, 1, 0) };
    expect(fillOfDraft(moved).steps).toEqual([{ ...STORED.steps[2], label: "Free" }, STORED.steps[1]]);
    expect(moved.steps.map((s) => s.id)).toEqual([formula.id, provider.id]);
  });

  it("keeps other top-level fields, and the card's kind and label over the JSON's", () => {
    const draft = draftOf({ ...STORED, note: "kept" } as { kind: string });
    expect(draft.rest).toEqual({ note: "kept" });
    const step = draft.steps[2];
    const changed = updateStep(draft.steps, step.id, { settings: '{"kind":"http","label":"x","expression":"1"}' });
    expect(fillOfDraft({ ...draft, steps: changed })).toMatchObject({
      note: "kept",
      kind: "waterfall",
      steps: [{}, {}, { kind: "formula", expression: "1" }],
    });
    expect(fillOfDraft({ ...draft, steps: changed }).steps).not.toContainEqual(expect.objectContaining({ label: "x" }));
  });

  it("names a step whose JSON is broken, on that step", () => {
    expect(settingsError('{"a":1}')).toBeNull();
    expect(settingsError("{")).toMatch(/^Not valid JSON/);
    expect(settingsError("[1]")).toBe("The settings are a JSON object.");
    const draft = draftOf(STORED);
    const broken = { ...draft, steps: updateStep(draft.steps, draft.steps[1].id, { settings: "{ nope" }) };
    const form = { ...formFor(column(STORED)), waterfall: broken };
    let thrown: unknown;
    try {
      requestBody(form, column(STORED), []);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(StepSettingsError);
    const errors = fieldErrors(thrown);
    expect(Object.keys(errors)).toEqual([`step:${draft.steps[1].id}`]);
    expect(errors[`step:${draft.steps[1].id}`]).toMatch(/^Step 2: Not valid JSON/);
  });
});

describe("the column editor's form", () => {
  it("sends a waterfall column's fill as the API stores it", () => {
    const form = { ...formFor(column(STORED)), inputColumnIds: ["c1"] };
    expect(form.mode).toBe("waterfall");
    expect(requestBody(form, column(STORED), [])).toMatchObject({ fill: STORED, inputColumnIds: ["c1"] });
    const http = { ...formFor(null), mode: "http" as const };
    expect(requestBody(http, null, []).fill).toHaveProperty("request");
    expect(requestBody({ ...formFor(null), mode: "waterfall" }, null, []).fill).toEqual({
      ...WATERFALL_TEMPLATE,
      kind: "waterfall",
    });
  });

  it("puts the API's error about a step on that step's card, wherever it has moved", () => {
    expect(stepIndexOf("fill.steps[1].extract")).toBe(1);
    expect(stepIndexOf("fill.steps.2.request.url")).toBe(2);
    expect(stepIndexOf("fill.steps")).toBeNull();
    expect(stepIndexOf(undefined)).toBeNull();
    const ids = ["s-a", "s-b"];
    const err = (details: unknown) => new ApiError(400, "invalid_fill", "fill.steps[1].extract: bad.", details);
    expect(fieldErrors(err({ field: "fill.steps[1].extract" }), ids)).toEqual({
      "step:s-b": "fill.steps[1].extract: bad.",
    });
    expect(fieldErrors(err({ field: "fill.steps.0" }), ids)).toEqual({ "step:s-a": "fill.steps[1].extract: bad." });
    // A step the form no longer has, or a fill-wide error, stays with the steps as a whole.
    expect(fieldErrors(err({ field: "fill.steps[5]" }), ids)).toEqual({ config: "fill.steps[1].extract: bad." });
    expect(fieldErrors(err({ field: "fill" }), ids)).toEqual({ config: "fill.steps[1].extract: bad." });
    const issues = new ApiError(400, "validation_failed", "Invalid.", {
      issues: [
        { path: "fill.steps[0].label", message: "Too long." },
        { path: "name", message: "Required." },
      ],
    });
    expect(fieldErrors(issues, ids)).toEqual({ "step:s-a": "label: Too long.", name: "Required." });
  });
});
