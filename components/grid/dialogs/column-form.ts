import { AUTO_RUN_MODES, TOOL_NAMES, type ToolName } from "@/lib/domain/column-model.ts";
import { ApiError } from "../../data/api";
import { configText, fillFromConfig } from "./fill-templates";
import { draftOf, fillOfDraft, StepSettingsError, stepIndexOf, type WaterfallDraft } from "./waterfall-steps-model";
import type { ColumnView } from "../../data/types";
import { rowsOfRunIf, runIfOfRows, type RunIfRow } from "./run-if-editor";

// The column editor's form state, the request it sends, and where the API's answer goes.

const TOOL_LABELS: Record<ToolName, { label: string; hint: string }> = {
  "web-search": { label: "Web search", hint: "Search the web for facts" },
  "scrape-url": { label: "Scrape URL", hint: "Read a web page from an input URL" },
  "file-analysis": { label: "File analysis", hint: "Read an attached file (PDF, Word, Excel…)" },
  "email-enrichment": { label: "Email enrichment", hint: "Find and verify email addresses" },
};

export const TOOLS = TOOL_NAMES.map((name) => ({ name, ...TOOL_LABELS[name] }));

export const AUTO_RUN = AUTO_RUN_MODES.map((m) => ({
  value: m,
  label: { always: "When inputs change", onInsert: "Only for new rows", never: "Only when asked" }[m],
}));

/** How a column is filled: the editor's first choice, and what decides the rest of the form. */
export const FILL_MODES = [
  { value: "manual", label: "By hand", name: "Filled by hand", hint: "Values are typed, pasted or imported." },
  {
    value: "ai",
    label: "AI",
    name: "Filled by AI",
    hint: "The AI fills each row from its instructions, inputs and tools.",
  },
  { value: "formula", label: "Formula", name: "Filled by formula", hint: "Computed from the row at once; no credits." },
  { value: "http", label: "HTTP", name: "Filled by HTTP", hint: "A data provider's API, asked for each row." },
  {
    value: "waterfall",
    label: "Waterfall",
    name: "Filled by waterfall",
    hint: "Providers in order until one finds a valid value.",
  },
] as const;
export type FillMode = (typeof FILL_MODES)[number]["value"];

export interface ColumnForm {
  name: string;
  type: string;
  options: string;
  isPrimary: boolean;
  mode: FillMode;
  expression: string;
  /** An HTTP column's settings, as JSON. */
  config: string;
  /** A waterfall column's steps, as cards. */
  waterfall: WaterfallDraft;
  instructions: string;
  inputColumnIds: string[];
  tools: string[];
  model: string;
  autoRun: string;
  /** The run condition as and-ed rows; null when it has a shape the rows cannot show (kept as is). */
  runIf: RunIfRow[] | null;
}

export type Field =
  | "name"
  | "type"
  | "options"
  | "isPrimary"
  | "instructions"
  | "inputColumnIds"
  | "tools"
  | "model"
  | "expression"
  | "config"
  | "runIf"
  | "form"
  /** One waterfall step's card, by its draft id. */
  | `step:${string}`;

export function formFor(column: ColumnView | null): ColumnForm {
  const o = column?.columnOptions ?? {};
  return {
    name: column?.name ?? "",
    type: column?.type ?? "short-text",
    options: Array.isArray(o.options) ? (o.options as string[]).join("\n") : "",
    isPrimary: column?.isPrimary ?? false,
    mode: column?.fill?.kind ?? (column?.isAiEnabled ? "ai" : "manual"),
    expression: column?.fill?.kind === "formula" ? column.fill.expression : "",
    config: configText(column?.fill),
    waterfall: draftOf(column?.fill),
    instructions: column?.instructions ?? "",
    inputColumnIds: column?.inputColumnIds ?? [],
    tools: column?.tools.map((t) => t.name) ?? [],
    model: typeof o.model === "string" ? o.model : "",
    autoRun: typeof o.autoRun === "string" ? o.autoRun : "always",
    runIf: rowsOfRunIf(column?.runIf ?? null),
  };
}

/** The POST/PATCH body. Options the form does not manage are kept as they were. */
export function requestBody(form: ColumnForm, column: ColumnView | null, columns: ColumnView[]) {
  const columnOptions: Record<string, unknown> = { ...(column?.columnOptions ?? {}) };
  delete columnOptions.options;
  delete columnOptions.model;
  delete columnOptions.autoRun;
  if (form.type === "select")
    columnOptions.options = form.options
      .split("\n")
      .map((s) => s.trim())
      .filter(Boolean);
  const ai = form.mode === "ai";
  const provider = form.mode === "http" || form.mode === "waterfall";
  const generated = ai || provider;
  if (ai && form.model.trim()) columnOptions.model = form.model.trim();
  if (ai && form.autoRun !== "always") columnOptions.autoRun = form.autoRun;
  return {
    name: form.name,
    type: form.type,
    // A primary column stays primary until another one takes over; false would be refused.
    ...(form.isPrimary || !column?.isPrimary ? { isPrimary: form.isPrimary } : {}),
    isAiEnabled: ai,
    instructions: form.instructions,
    tools: ai ? form.tools : [],
    columnOptions,
    // A formula's inputs are the columns its expression names, an HTTP column's the columns its
    // request names; the API derives them. A waterfall's AI steps read the inputs chosen too.
    ...(form.mode === "formula"
      ? { fill: { kind: "formula" as const, expression: form.expression } }
      : provider
        ? {
            fill: form.mode === "http" ? fillFromConfig(form.config) : fillOfDraft(form.waterfall),
            inputColumnIds: form.mode === "waterfall" ? form.inputColumnIds : [],
          }
        : { inputColumnIds: ai ? form.inputColumnIds : [], ...(column?.fill ? { fill: null } : {}) }),
    // A condition the rows cannot show is left as stored; a column that is not generated has none.
    ...(form.runIf === null && generated ? {} : { runIf: generated ? runIfOfRows(form.runIf ?? [], columns) : null }),
  };
}

const BY_CODE: Record<string, Field> = {
  duplicate_column_name: "name",
  unknown_column_type: "type",
  dependency_cycle: "inputColumnIds",
  column_not_found: "inputColumnIds",
  unknown_tool: "tools",
  unknown_model: "model",
  primary_column_conflict: "isPrimary",
  primary_column_required: "isPrimary",
  invalid_formula: "expression",
  invalid_fill: "config",
  invalid_run_if: "runIf",
};

const BY_PATH: Record<string, Field> = {
  name: "name",
  type: "type",
  instructions: "instructions",
  inputColumnIds: "inputColumnIds",
  tools: "tools",
  "columnOptions.model": "model",
  "columnOptions.options": "options",
  columnOptions: "options",
  fill: "expression",
  "fill.expression": "expression",
  runIf: "runIf",
};

const STEP_PREFIX = /^fill\.steps(?:\[\d+\]|\.\d+)\.?/;

/**
 * Puts the API's error next to the field it is about; anything else is shown above the buttons.
 * `stepIds` are the waterfall's cards in the order sent, so "fill.steps[1]…" lands on the second.
 */
export function fieldErrors(e: unknown, stepIds: readonly string[] = []): Partial<Record<Field, string>> {
  if (e instanceof StepSettingsError) return { [`step:${e.stepId}`]: e.message };
  if (!(e instanceof ApiError)) return { form: e instanceof Error ? e.message : "Saving failed." };
  const details = (e.details ?? {}) as {
    field?: string;
    path?: string;
    issues?: { path: string; message: string }[];
  };
  const step = stepIndexOf(details.field) ?? stepIndexOf(details.path);
  if (step !== null && stepIds[step]) return { [`step:${stepIds[step]}`]: e.message };
  const byCode = BY_CODE[e.code];
  if (byCode) return { [byCode]: e.message };
  // A filter error's path starts at the tree it is in: "runIf.and[1].op".
  if (details.path?.startsWith("runIf")) return { runIf: e.message };
  if (details.field && BY_PATH[details.field]) return { [BY_PATH[details.field]]: e.message };
  const out: Partial<Record<Field, string>> = {};
  for (const issue of details.issues ?? []) {
    const i = stepIndexOf(issue.path);
    const onStep = i !== null && stepIds[i];
    const f: Field = onStep
      ? `step:${stepIds[i]}`
      : (BY_PATH[issue.path] ?? BY_PATH[issue.path.split(".")[0]] ?? "form");
    // On a step's card, the setting within the step: "extract: Too small…".
    const message = onStep ? `${issue.path.replace(STEP_PREFIX, "") || "step"}: ${issue.message}` : issue.message;
    out[f] = out[f] ? `${out[f]} ${message}` : message;
  }
  return Object.keys(out).length ? out : { form: e.message };
}
