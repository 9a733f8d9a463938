import { wrapLanguageModel, type LanguageModel } from "ai";
import { appError } from "../../errors.ts";

// What one cell generation may cost in model calls. Attempts, tool steps, structured-mode probes
// and validation repairs all multiply: without a cap a failing cell could make dozens of calls.
// The budget sits below the AI SDK as a model middleware, so every request to the provider is
// counted, whichever path made it, and the call past the cap is refused before it is sent.

/**
 * Tool calls the model may make in one step. A reply asking for more runs only the first ones;
 * the rest are dropped before they execute (the final answer is always kept).
 */
export const MAX_TOOL_CALLS_PER_STEP = 5;

export class CallBudget {
  /** Calls made through this budget (not counting `spentBefore`). */
  made = 0;
  readonly limit: number;
  /** Calls earlier attempts of the same generation already made. */
  readonly spentBefore: number;
  constructor(limit: number, spentBefore = 0) {
    this.limit = limit;
    this.spentBefore = spentBefore;
  }

  get remaining(): number {
    return Math.max(0, this.limit - this.spentBefore - this.made);
  }

  /** Throws call_limit_reached (not retryable) when no call is left. */
  ensure(): void {
    if (this.remaining <= 0) {
      throw appError(
        "call_limit_reached",
        `The cell reached its limit of ${this.limit} model calls (AI_MAX_CALLS_PER_CELL).`,
        { retryable: false, limit: this.limit },
      );
    }
  }

  /** Counts one call, or throws call_limit_reached when none is left. */
  take(): void {
    this.ensure();
    this.made++;
  }
}

type Model = Exclude<LanguageModel, string>;
type Content = { type: string; toolName?: string }[];

/** Keeps at most `max` tool calls of one reply, besides the answer tool. */
export function capToolCalls<T extends Content>(content: T, max: number, keep: string): T {
  let seen = 0;
  return content.filter((part) => part.type !== "tool-call" || part.toolName === keep || ++seen <= max) as T;
}

/** `model`, with every call counted against `budget` and tool calls capped per step. */
export function budgetedModel(model: Model, budget: CallBudget, answerTool: string): Model {
  return wrapLanguageModel({
    model: model as Parameters<typeof wrapLanguageModel>[0]["model"],
    middleware: {
      wrapGenerate: async ({ doGenerate }) => {
        budget.take();
        const result = await doGenerate();
        return { ...result, content: capToolCalls(result.content, MAX_TOOL_CALLS_PER_STEP, answerTool) };
      },
      wrapStream: async ({ doStream }) => {
        budget.take();
        return doStream();
      },
    },
  }) as Model;
}
