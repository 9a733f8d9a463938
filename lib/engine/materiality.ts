import { z } from "zod";
import type { Runtime } from "../runtime.ts";
import type { ColumnRecord } from "../domain/column-model.ts";
import { columnOptionsOf } from "../domain/column-model.ts";
import { sameValue } from "../domain/column-types/index.ts";
import { fenceUntrusted } from "../tools/fence.ts";
import { classifyError } from "./llm/classify-error.ts";
import { generateCellAnswer, resolveLanguageModel } from "./llm/index.ts";
import { CallBudget } from "./llm/call-budget.ts";
import { UNTRUSTED_RULE } from "./prompt.ts";
import type { RateLimiter } from "./rate-limit.ts";

// A schedule with materiality "model" asks, for each text cell whose refreshed value differs from
// the one before, whether the change matters: rewording is not news, a new title or figure is.
// The verdict decides whether the change is announced (cell.changed, changedAt); the value is
// stored either way. One call, charged like a cell's generation, never retried: a judge that
// fails leaves the change announced as its type compares it, uncharged, and says so.

const verdictSchema = z.object({ material: z.boolean(), reason: z.string() });

const TEXT_TYPES = new Set(["short-text", "long-text"]);
const REASON_CHARS = 300;

export const MATERIALITY_RUBRIC = [
  "You compare two values of one spreadsheet cell: the value it held, and the value a scheduled refresh just found.",
  UNTRUSTED_RULE,
  "The change is material when someone relying on the cell would act differently: a different fact, name, title, number, date, status or conclusion, or a fact added or removed.",
  "Rewording, reordering, formatting, spelling, abbreviation and added or dropped filler are not material.",
  'Reply with a JSON object: {"material": true or false, "reason": one short sentence naming what changed or why it does not matter}.',
].join("\n");

/** Whether this answer's change is one the model should judge: a text value replacing a different one. */
export function needsJudgment(
  column: ColumnRecord,
  cell: { judgeChanges: boolean; previousValue: string },
  value: string,
): boolean {
  if (!cell.judgeChanges || !TEXT_TYPES.has(column.type)) return false;
  if (cell.previousValue === "" || value === "") return false;
  return !sameValue(column, cell.previousValue, value);
}

/**
 * The model's verdict on a change, with the charge it costs (null when the judge failed). Throws
 * only when the signal aborted: the attempt is cancelled or the process stops.
 */
export async function judgeMateriality(
  rt: Runtime,
  limiter: RateLimiter,
  req: { column: ColumnRecord; before: string; after: string; signal: AbortSignal },
): Promise<{ material: boolean; reason: string; charged: boolean }> {
  try {
    const model = resolveLanguageModel(columnOptionsOf(req.column).model as string | undefined, rt.config);
    await limiter.acquire(model.provider, req.signal);
    const prompt = [
      `The column:\n${fenceUntrusted("column name", req.column.name)}`,
      `What the column holds:\n${fenceUntrusted("instructions", req.column.instructions)}`,
      `The value it held:\n${fenceUntrusted("before", req.before)}`,
      `The value the refresh found:\n${fenceUntrusted("after", req.after)}`,
    ].join("\n\n");
    const verdict = await generateCellAnswer({
      model,
      system: MATERIALITY_RUBRIC,
      prompt,
      schema: verdictSchema,
      maxSteps: 1,
      budget: new CallBudget(1, 0),
      timeoutMs: rt.config.ai.timeoutMs,
      maxOutputTokens: rt.config.ai.maxOutputTokens,
      abortSignal: req.signal,
    });
    const reason = verdict.object.reason.replace(/\s+/g, " ").trim().slice(0, REASON_CHARS);
    return { material: verdict.object.material, reason: reason || "The model gave no reason.", charged: true };
  } catch (e) {
    if (req.signal.aborted) throw e;
    const { code } = classifyError(e);
    return {
      material: true,
      reason: `The value changed; the model could not judge whether it matters (${code}).`,
      charged: false,
    };
  }
}
