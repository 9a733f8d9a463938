import {
  generateText,
  isStepCount,
  hasToolCall,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  Output,
  tool,
  type StepResult,
  type ToolSet,
} from "ai";
import type { z } from "zod";
import { appError, isAppError } from "../../errors.ts";
import { classifyError } from "./classify-error.ts";
import type { ResolvedModel } from "./resolve-model.ts";
import { budgetedModel, type CallBudget } from "./call-budget.ts";
import {
  fallbackMode,
  isStrictCompatible,
  learnMode,
  learnedMode,
  parseAnswerText,
  schemaInstructions,
  validateAnswer,
  type StructuredMode,
} from "./structured-output.ts";

// One cell's model call: let the model use the column's tools for a few steps, then obtain an
// answer that fits the schema. Retries and backoff belong to the engine (maxRetries: 0 here);
// this function makes exactly one attempt, plus the one-time probes of a server's structured mode.

export interface CellAnswerRequest<T> {
  /** From resolveLanguageModel; its base URL and spec key the learned structured mode. */
  model: ResolvedModel;
  system: string;
  prompt: string;
  /** AI SDK tools with execute functions; may be empty. */
  tools?: ToolSet;
  schema: z.ZodType<T>;
  /** Cap on model calls (steps), including the final answer. */
  maxSteps: number;
  /** Deadline of the whole call; 0 means none. */
  timeoutMs: number;
  maxOutputTokens?: number;
  abortSignal?: AbortSignal;
  /** Counts every request sent, probes and steps included; the call past it throws call_limit_reached. */
  budget?: CallBudget;
}

export interface CellAnswer<T> {
  object: T;
  usage: { inputTokens: number; outputTokens: number };
  latencyMs: number;
  /** Tool calls the model made (the internal final_answer tool not counted). */
  toolCalls: number;
  structuredMode: StructuredMode;
}

/** The answer tool of "tool" mode. Its input is the schema, so its arguments are the answer. */
export const FINAL_ANSWER_TOOL = "final_answer";

interface Tally {
  inputTokens: number;
  outputTokens: number;
  toolCalls: number;
}

function tallyStep(tally: Tally, step: StepResult<ToolSet>) {
  tally.inputTokens += step.usage.inputTokens ?? 0;
  tally.outputTokens += step.usage.outputTokens ?? 0;
  tally.toolCalls += step.toolCalls.filter((c) => c.toolName !== FINAL_ANSWER_TOOL).length;
}

type Attempt<T> = Omit<CellAnswerRequest<T>, "abortSignal" | "timeoutMs" | "budget"> & {
  signal: AbortSignal;
  tally: Tally;
  callModel: ResolvedModel["model"];
};

function common<T>(a: Attempt<T>) {
  return {
    model: a.callModel,
    prompt: a.prompt,
    maxOutputTokens: a.maxOutputTokens || undefined,
    maxRetries: 0,
    abortSignal: a.signal,
    onStepEnd: (step: StepResult<ToolSet>) => tallyStep(a.tally, step),
  };
}

const hasTools = (tools: ToolSet | undefined): tools is ToolSet => !!tools && Object.keys(tools).length > 0;

/** On the last allowed step tools are switched off, so the model has to answer. */
const lastStepAnswers =
  (maxSteps: number) =>
  ({ stepNumber }: { stepNumber: number }) =>
    stepNumber >= maxSteps - 1 ? { toolChoice: "none" as const } : undefined;

// One output spec per schema: building it converts the schema to JSON Schema, and the engine's
// answer schema is the same object for every cell.
const outputs = new WeakMap<z.ZodType, ReturnType<typeof Output.object>>();
const outputFor = <T>(schema: z.ZodType<T>) => {
  let output = outputs.get(schema);
  if (!output) outputs.set(schema, (output = Output.object({ schema })));
  return output;
};

async function viaJsonSchema<T>(a: Attempt<T>): Promise<T> {
  try {
    const result = await generateText({
      ...common(a),
      instructions: a.system,
      tools: a.tools,
      output: outputFor(a.schema),
      providerOptions: { openai: { strictJsonSchema: isStrictCompatible(a.schema) } },
      ...(hasTools(a.tools) ? { stopWhen: isStepCount(a.maxSteps), prepareStep: lastStepAnswers(a.maxSteps) } : {}),
    });
    return result.output as T;
  } catch (e) {
    // Servers that ignore response_format still often answer JSON, fenced or wrapped in prose.
    if (NoObjectGeneratedError.isInstance(e) && e.text) return parseAnswerText(e.text, a.schema, "json_schema");
    throw e;
  }
}

async function viaTool<T>(a: Attempt<T>): Promise<T> {
  const userTools = hasTools(a.tools) ? a.tools : {};
  const tools: ToolSet = {
    ...userTools,
    [FINAL_ANSWER_TOOL]: tool({
      description: "Submit the final answer. Call it exactly once, when you are done.",
      inputSchema: a.schema,
    }),
  };
  const lastStep = hasTools(a.tools) ? a.maxSteps - 1 : 0;
  const result = await generateText({
    ...common(a),
    instructions: `${a.system}\n\nWhen you have the answer, call the ${FINAL_ANSWER_TOOL} tool with it.`,
    tools,
    toolChoice: "required",
    stopWhen: [isStepCount(Math.max(1, a.maxSteps)), hasToolCall(FINAL_ANSWER_TOOL)],
    prepareStep: ({ stepNumber }) =>
      stepNumber >= lastStep
        ? { toolChoice: { type: "tool" as const, toolName: FINAL_ANSWER_TOOL }, activeTools: [FINAL_ANSWER_TOOL] }
        : undefined,
  });
  const call = result.toolCalls.find((c) => c.toolName === FINAL_ANSWER_TOOL);
  if (!call)
    throw appError("invalid_output", "The model did not submit an answer.", {
      retryable: true,
      mode: "tool",
      output: result.finalStep.text,
    });
  // Unparsable arguments arrive as an invalid call carrying the raw text: repair it like text.
  if (call.invalid || typeof call.input === "string") {
    return parseAnswerText(
      typeof call.input === "string" ? call.input : JSON.stringify(call.input ?? null),
      a.schema,
      "tool",
    );
  }
  return validateAnswer(call.input, a.schema, JSON.stringify(call.input), "tool");
}

async function viaText<T>(a: Attempt<T>): Promise<T> {
  const result = await generateText({
    ...common(a),
    instructions: `${a.system}\n\n${schemaInstructions(a.schema)}`,
    ...(hasTools(a.tools)
      ? { tools: a.tools, stopWhen: isStepCount(a.maxSteps), prepareStep: lastStepAnswers(a.maxSteps) }
      : {}),
  });
  return parseAnswerText(result.finalStep.text, a.schema, "text");
}

const MODES = { json_schema: viaJsonSchema, tool: viaTool, text: viaText } as const;

/**
 * Runs one cell's model call. Throws AppError timeout / invalid_output, or the provider's error
 * as is; pass any error to classifyError to learn whether and when to retry.
 */
export async function generateCellAnswer<T>(req: CellAnswerRequest<T>): Promise<CellAnswer<T>> {
  const started = performance.now();
  const deadline = req.timeoutMs > 0 ? AbortSignal.timeout(req.timeoutMs) : undefined;
  const signals = [deadline, req.abortSignal].filter((s): s is AbortSignal => !!s);
  const signal = AbortSignal.any(signals);
  const tally: Tally = { inputTokens: 0, outputTokens: 0, toolCalls: 0 };
  const callModel = req.budget ? budgetedModel(req.model.model, req.budget, FINAL_ANSWER_TOOL) : req.model.model;
  const attempt: Attempt<T> = { ...req, maxSteps: Math.max(1, req.maxSteps), signal, tally, callModel };
  let mode = learnedMode(req.model) ?? "json_schema";
  try {
    for (;;) {
      try {
        const object = await MODES[mode](attempt);
        return {
          object,
          usage: { inputTokens: tally.inputTokens, outputTokens: tally.outputTokens },
          latencyMs: Math.round(performance.now() - started),
          toolCalls: tally.toolCalls,
          structuredMode: mode,
        };
      } catch (e) {
        const next = fallbackMode(mode, e);
        if (!next) throw e;
        // A refusal is a property of the server and model, not of this call: remember it now.
        learnMode(req.model, next);
        mode = next;
      }
    }
  } catch (e) {
    if (deadline?.aborted && !req.abortSignal?.aborted) {
      throw appError("timeout", `The model did not answer within ${req.timeoutMs} ms.`, {
        retryable: true,
        timeoutMs: req.timeoutMs,
      });
    }
    if (NoOutputGeneratedError.isInstance(e)) {
      throw appError("invalid_output", "The model stopped without giving an answer.", { retryable: true, mode });
    }
    // Other model misbehaviour (a tool call where none was allowed, an unknown tool) is bad output too.
    if (!isAppError(e) && classifyError(e).code === "invalid_output") {
      throw appError("invalid_output", classifyError(e).message, { retryable: true, mode });
    }
    throw e;
  }
}
