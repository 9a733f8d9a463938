// Shared setup for the provider-layer tests: a fresh fake LLM per test and a Config pointing at it.
import { afterEach, beforeEach } from "vitest";
import { z } from "zod";
import { loadConfig, type Config } from "../../lib/config.ts";
import {
  forgetStructuredModes,
  resolveLanguageModel,
  type CellAnswerRequest,
  type ResolvedModel,
} from "../../lib/engine/llm/index.ts";
import { startFakeLlm, type FakeLlm, type FakeLlmOptions } from "../support/fake-llm.ts";

// The SDK logs compatibility warnings (e.g. unknown model ids) to the console; keep test output clean.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

export const answerSchema = z.object({
  value: z.string(),
  sources: z.array(z.string()),
  confidenceScore: z.number().min(0).max(1),
});
export type Answer = z.infer<typeof answerSchema>;

export function useFakeLlm(opts: FakeLlmOptions = {}) {
  const ctx = {} as { llm: FakeLlm; config: Config };
  beforeEach(async () => {
    // Ports get reused between tests, so learned structured modes must not leak across them.
    forgetStructuredModes();
    ctx.llm = await startFakeLlm(opts);
    ctx.config = loadConfig({
      OPENAI_BASE_URL: ctx.llm.baseUrl,
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: ctx.llm.anthropicBaseUrl,
    });
  });
  afterEach(async () => {
    await ctx.llm.close();
  });
  return ctx;
}

export function cellRequest(
  model: ResolvedModel,
  over: Partial<CellAnswerRequest<Answer>> = {},
): CellAnswerRequest<Answer> {
  return {
    model,
    system: "You fill one cell of a table.",
    prompt: "Company: Acme\nWebsite: acme.example",
    schema: answerSchema,
    maxSteps: 4,
    timeoutMs: 5_000,
    ...over,
  };
}

export const openaiModel = (config: Config, id = "gpt-4.1-mini") => resolveLanguageModel(`openai:${id}`, config);

/** Runs fn and returns what it threw (fails the test when it does not throw). */
export async function caught(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected the call to throw");
}
