import type { z } from "zod";
import type { Runtime } from "../../runtime.ts";
import type { RateLimiter } from "../rate-limit.ts";

// One structured model call of a find (planning its searches, reading candidates out of results,
// verifying a candidate): the deployment's model, under the shared rate limit and the per-call
// limits of a cell, one attempt (the find worker retries).

export interface FindAsk {
  rt: Runtime;
  limiter: RateLimiter;
}

export async function askJson<T>(
  deps: FindAsk,
  req: { system: string; prompt: string; schema: z.ZodType<T>; signal: AbortSignal },
): Promise<T> {
  const { rt } = deps;
  // The AI SDK loads with the first question, not at boot.
  const { generateCellAnswer, resolveLanguageModel } = await import("../llm/index.ts");
  const { CallBudget } = await import("../llm/call-budget.ts");
  const model = resolveLanguageModel(undefined, rt.config);
  await deps.limiter.acquire(model.provider, req.signal);
  const answer = await generateCellAnswer({
    model,
    system: req.system,
    prompt: req.prompt,
    schema: req.schema,
    maxSteps: 1,
    budget: new CallBudget(rt.config.ai.maxCallsPerCell, 0),
    timeoutMs: rt.config.ai.timeoutMs,
    maxOutputTokens: rt.config.ai.maxOutputTokens,
    abortSignal: req.signal,
  });
  return answer.object;
}
