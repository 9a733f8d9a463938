import type { Runtime } from "../runtime.ts";
import type { ColumnRecord } from "../domain/column-model.ts";
import { columnOptionsOf } from "../domain/column-model.ts";
import type { AttemptRecord } from "../domain/cells/index.ts";
import { toolLimitsFromConfig, type ToolContext, type ToolDocument } from "../tools/index.ts";
import { generateCellAnswer, resolveLanguageModel, type ResolvedModel } from "./llm/index.ts";
import { CallBudget } from "./llm/call-budget.ts";
import { buildCellTools } from "./cell-tools.ts";
import { buildSystemPrompt, buildUserPrompt, type PromptInput } from "./prompt.ts";
import { cellAnswerSchema, checkAnswer, type CheckedAnswer } from "./answer.ts";
import type { RateLimiter } from "./rate-limit.ts";

// One column's question for one row, asked of the model with the column's tools: the part of a
// cell's attempt that an evaluation repeats with other settings. The caller stores the outcome.

export interface ColumnQuestion {
  baseName: string;
  workspaceId: string;
  /** The column as it is asked (an evaluation passes its overridden settings). */
  column: ColumnRecord;
  columns: ColumnRecord[];
  values: Record<string, string>;
  /** Verified cells of other rows (never the row being asked). */
  examples: { values: Record<string, string>; value: string }[];
}

export interface AskDeps {
  limiter: RateLimiter;
  tools?: Partial<Pick<ToolContext, "cache" | "dns" | "lookup" | "files" | "fetchImpl">>;
}

export interface Asking {
  model: ResolvedModel;
  budget: CallBudget;
  /** Accounting of the calls made so far, also when the question ends in an error. */
  attempt: AttemptRecord;
}

/** Resolves the column's model; `callsSpent` counts the calls earlier attempts already made. */
export function startAsking(rt: Runtime, column: ColumnRecord, callsSpent: number): Asking {
  const model = resolveLanguageModel(columnOptionsOf(column).model as string | undefined, rt.config);
  const budget = new CallBudget(rt.config.ai.maxCallsPerCell, callsSpent);
  const attempt: AttemptRecord = {
    provider: model.provider,
    model: model.modelId,
    inputTokens: 0,
    outputTokens: 0,
    latencyMs: 0,
    get modelCalls() {
      return budget.made;
    },
  };
  return { model, budget, attempt };
}

/** Asks, and once more with the reason when the answer does not fit the column. */
export async function askColumn(
  rt: Runtime,
  deps: AskDeps,
  q: ColumnQuestion,
  asking: Asking,
  signal: AbortSignal,
): Promise<CheckedAnswer> {
  const { config } = rt;
  const { model, budget, attempt } = asking;
  const documents: ToolDocument[] = [];
  const prompt = promptInput(q);
  const tools = buildCellTools(q.column.tools, config, toolContext(rt, q, signal, deps), documents);
  let correction: string | undefined;
  for (let round = 0; round < 2; round++) {
    // No call left: the question ends here, and nothing is charged for calls never made.
    budget.ensure();
    await deps.limiter.acquire(model.provider, signal);
    const answer = await generateCellAnswer({
      model,
      system: buildSystemPrompt(prompt),
      prompt: buildUserPrompt(prompt, correction),
      tools,
      schema: cellAnswerSchema,
      // The last call the budget allows has to answer rather than ask for a tool.
      maxSteps: Math.min(config.ai.maxSteps, budget.remaining),
      budget,
      timeoutMs: config.ai.timeoutMs,
      maxOutputTokens: config.ai.maxOutputTokens,
      abortSignal: signal,
    });
    attempt.inputTokens += answer.usage.inputTokens;
    attempt.outputTokens += answer.usage.outputTokens;
    attempt.latencyMs += answer.latencyMs;
    const checked = checkAnswer(q.column, answer.object, documents);
    if (checked.ok) return checked;
    correction = checked.problem;
  }
  return { ok: false, problem: correction! };
}

function promptInput(q: ColumnQuestion): PromptInput {
  const primary = q.columns.find((c) => c.isPrimary && c.id !== q.column.id);
  const inputs = q.column.inputColumnIds
    .map((id) => q.columns.find((c) => c.id === id))
    .filter((c): c is NonNullable<typeof c> => Boolean(c) && c!.id !== primary?.id)
    .map((column) => ({ column, value: q.values[column.id] ?? "" }));
  const named = [...(primary ? [primary] : []), ...inputs.map((i) => i.column)];
  const examples = q.examples.map((e) => ({
    inputs: Object.fromEntries(named.map((c) => [c.name, e.values[c.id] ?? ""])),
    value: e.value,
  }));
  return {
    baseName: q.baseName,
    column: q.column,
    primary: primary ? { column: primary, value: q.values[primary.id] ?? "" } : undefined,
    inputs,
    toolNames: q.column.tools,
    examples,
  };
}

function toolContext(rt: Runtime, q: ColumnQuestion, signal: AbortSignal, deps: AskDeps): ToolContext {
  // No prototype: a column may be named "__proto__" or "constructor" like any other.
  const inputs: Record<string, string> = Object.create(null);
  for (const id of q.column.inputColumnIds) {
    const c = q.columns.find((x) => x.id === id);
    if (c) inputs[c.name] = q.values[c.id] ?? "";
  }
  const primary = q.columns.find((c) => c.isPrimary);
  if (primary) inputs[primary.name] ??= q.values[primary.id] ?? "";
  return {
    config: rt.config,
    limits: toolLimitsFromConfig(rt.config),
    instructions: q.column.instructions,
    inputs,
    signal,
    workspaceId: q.workspaceId,
    ...deps.tools,
  };
}
