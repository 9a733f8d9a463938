import { STEP_TEMPLATES, WATERFALL_TEMPLATE } from "./fill-templates";

// A waterfall's steps as the column editor holds them: one card per step, each with its kind, its
// label and the rest of its settings as JSON text, so one bad step's JSON does not hide the others.

export const STEP_KINDS = ["http", "tool", "ai", "formula"] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export const STEP_KIND_NAMES: Record<StepKind, string> = {
  http: "HTTP request",
  tool: "Built-in tool",
  ai: "AI",
  formula: "Formula",
};

/** The API takes at most this many steps (waterfall-schema's limit, kept out of the client bundle). */
export const MAX_STEPS = 10;

export interface StepDraft {
  /** Stable across reorders: the card's key, its drag id, and what its errors are attached to. */
  id: string;
  kind: string;
  label: string;
  /** The step without its kind and label, as JSON. */
  settings: string;
}

export interface WaterfallDraft {
  steps: StepDraft[];
  /** Top-level fields besides the steps, sent back as they were. */
  rest: Record<string, unknown>;
}

let counter = 0;
const nextId = () => `step-${++counter}`;

export function stepDraft(step: Record<string, unknown>): StepDraft {
  const { kind, label, ...settings } = step;
  return {
    id: nextId(),
    kind: typeof kind === "string" ? kind : "http",
    label: typeof label === "string" ? label : "",
    settings: JSON.stringify(settings, null, 2),
  };
}

/** A column's waterfall as cards, or the template's steps for a column that has none. */
export function draftOf(fill: { kind: string } | null | undefined): WaterfallDraft {
  const source = (fill?.kind === "waterfall" ? fill : WATERFALL_TEMPLATE) as Record<string, unknown>;
  const { kind: _, steps, ...rest } = source;
  const list = Array.isArray(steps) ? (steps as Record<string, unknown>[]) : [];
  return { steps: list.map(stepDraft), rest };
}

export const newStep = (kind: StepKind): StepDraft => stepDraft(STEP_TEMPLATES[kind]);

/** The list with the step at `from` moved to `to`; out-of-range moves leave it as it was. */
export function moveStep<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return [...list];
  const out = [...list];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
}

export const removeStep = (list: readonly StepDraft[], id: string) => list.filter((s) => s.id !== id);

export const updateStep = (list: readonly StepDraft[], id: string, patch: Partial<Omit<StepDraft, "id">>) =>
  list.map((s) => (s.id === id ? { ...s, ...patch } : s));

/** What is wrong with a step's settings text, or null when it is a JSON object. */
export function settingsError(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return `Not valid JSON: ${(e as Error).message}`;
  }
  return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? null : "The settings are a JSON object.";
}

/** A step whose settings cannot be sent; fieldErrors shows it on that step's card. */
export class StepSettingsError extends Error {
  readonly stepId: string;
  constructor(stepId: string, position: number, message: string) {
    super(`Step ${position}: ${message}`);
    this.stepId = stepId;
  }
}

/** The fill the editor sends: exactly the shape the API stores, steps in the cards' order. */
export function fillOfDraft(draft: WaterfallDraft): Record<string, unknown> {
  const steps = draft.steps.map((s, i) => {
    const problem = settingsError(s.settings);
    if (problem) throw new StepSettingsError(s.id, i + 1, problem);
    const { kind: _, label: __, ...settings } = JSON.parse(s.settings) as Record<string, unknown>;
    return { kind: s.kind, ...(s.label.trim() ? { label: s.label } : {}), ...settings };
  });
  return { ...draft.rest, steps, kind: "waterfall" };
}

/** The step index an API error's field names ("fill.steps[1].extract" or "fill.steps.1.extract"). */
export function stepIndexOf(field: string | undefined): number | null {
  const m = field ? /^fill\.steps(?:\[(\d+)\]|\.(\d+))/.exec(field) : null;
  return m ? Number(m[1] ?? m[2]) : null;
}

/** How a step is named to people and screen readers: its label, else its kind. */
export const stepName = (s: StepDraft) => s.label.trim() || STEP_KIND_NAMES[s.kind as StepKind] || s.kind;
