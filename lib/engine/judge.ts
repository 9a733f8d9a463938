import { z } from "zod";
import type { Runtime } from "../runtime.ts";
import type { ColumnRecord } from "../domain/column-model.ts";
import { fenceUntrusted } from "../tools/fence.ts";
import { generateCellAnswer, resolveLanguageModel } from "./llm/index.ts";
import { CallBudget } from "./llm/call-budget.ts";
import { UNTRUSTED_RULE } from "./prompt.ts";
import type { RateLimiter } from "./rate-limit.ts";

// The judge of long-text answers in an evaluation: whether an answer says what the verified
// value says. The rubric is fixed, so verdicts of two evaluations compare; both texts are data.

const verdictSchema = z.object({ correct: z.boolean(), reason: z.string() });

export const JUDGE_RUBRIC = [
  "You judge one answer in a spreadsheet column against the reference value a reviewer verified.",
  UNTRUSTED_RULE,
  "The answer is correct when it states the same facts as the reference: the same entities, numbers, dates and conclusions.",
  "Wording, order, length and formatting do not matter. Missing a fact the reference states, adding a fact that contradicts it, or answering a different question makes it incorrect.",
  'Reply with a JSON object: {"correct": true or false, "reason": one sentence naming what matches or differs}.',
].join("\n");

export async function judgeAnswer(
  rt: Runtime,
  limiter: RateLimiter,
  req: { judgeModel: string; column: ColumnRecord; expected: string; got: string; signal: AbortSignal },
): Promise<{ correct: boolean; reason: string }> {
  const model = resolveLanguageModel(req.judgeModel, rt.config);
  const budget = new CallBudget(rt.config.ai.maxCallsPerCell, 0);
  await limiter.acquire(model.provider, req.signal);
  const prompt = [
    `The column:\n${fenceUntrusted("column name", req.column.name)}`,
    `The column's instructions:\n${fenceUntrusted("instructions", req.column.instructions)}`,
    `Reference value:\n${fenceUntrusted("reference", req.expected)}`,
    `Answer to judge:\n${fenceUntrusted("answer", req.got)}`,
  ].join("\n\n");
  const verdict = await generateCellAnswer({
    model,
    system: JUDGE_RUBRIC,
    prompt,
    schema: verdictSchema,
    maxSteps: 1,
    budget,
    timeoutMs: rt.config.ai.timeoutMs,
    maxOutputTokens: rt.config.ai.maxOutputTokens,
    abortSignal: req.signal,
  });
  return { correct: verdict.object.correct, reason: verdict.object.reason.trim().slice(0, 1_000) };
}
