import type { Runtime } from "../runtime.ts";
import type { CellJob, CellWorker } from "../jobs/types.ts";
import { CellCancelled } from "../jobs/worker-slots.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { inTransaction } from "../db/work.ts";
import { columnOptionsOf } from "../domain/column-model.ts";
import { classifyError, generateCellAnswer, resolveLanguageModel } from "./llm/index.ts";
import { toolLimitsFromConfig, type ToolContext, type ToolDocument } from "../tools/index.ts";
import { buildCellTools } from "./cell-tools.ts";
import { createCellContextLoader, type CellContext } from "./cell-context.ts";
import { buildSystemPrompt, buildUserPrompt, type PromptInput } from "./prompt.ts";
import { cellAnswerSchema, checkAnswer } from "./answer.ts";
import { failCell, InsufficientCredits, retryCell, type Completion, type RunRecord } from "../domain/cells/index.ts";
import { backoffMs } from "./backoff.ts";
import { inputHashIn } from "../domain/input-hash.ts";
import { CallBudget } from "./llm/call-budget.ts";

export interface RunnerDeps {
  limiter: RateLimiter;
  owner: string;
  complete: (c: Completion) => Promise<unknown>;
  tools?: Partial<Pick<ToolContext, "cache" | "dns" | "lookup" | "files" | "fetchImpl">>;
}

const chargeKey = (job: CellJob) => `cell:${job.rowId}:${job.columnId}:${job.generation}`;

/** Runs one claimed cell: build the prompt, call the model with the column's tools, store the outcome. */
export function createCellWorker(rt: Runtime, deps: RunnerDeps): CellWorker {
  const { config } = rt;
  const loadContext = createCellContextLoader(rt.db.prisma, deps.owner);
  return async (job, signal) => {
    const ctx = await loadContext(job);
    if (!ctx) return;
    const charge = { workspaceId: ctx.base.workspaceId, amount: config.credits.cellRun, reason: "cell_run", baseId: ctx.base.baseId, rowId: job.rowId, columnId: job.columnId, idempotencyKey: chargeKey(job) };
    const fail = (code: string, message: string, run?: RunRecord) =>
      inTransaction(rt, (w) => failCell(w, ctx.base, job, deps.owner, { code, message }, ctx.columns, run));
    const noCredits = () => fail("insufficient_credits", "The workspace has no credits left; top up and run the cell again.");

    if (ctx.failedInputs.length > 0) {
      const names = ctx.failedInputs.map((c) => `"${c.name}"`).join(", ");
      return void (await fail("input_failed", `Input column ${names} ended in error.`));
    }
    let run: RunRecord | undefined;
    try {
      const model = resolveLanguageModel(columnOptionsOf(ctx.column).model as string | undefined, config);
      // Counts every request this attempt sends; earlier attempts' calls count against the same cap.
      const budget = new CallBudget(config.ai.maxCallsPerCell, ctx.callsSpent);
      run = { provider: model.provider, model: model.modelId, inputTokens: 0, outputTokens: 0, latencyMs: 0, get modelCalls() { return budget.made; } };
      // Checked before the call so an empty balance costs no model call; the charge itself is made
      // when the value is stored (see completeCell).
      if (ctx.credits !== null && ctx.credits < charge.amount) return void (await noCredits());

      const documents: ToolDocument[] = [];
      const prompt = promptInput(ctx);
      const tools = buildCellTools(ctx.column.tools, config, toolContext(rt, ctx, signal, deps), documents);
      let correction: string | undefined;
      for (let round = 0; round < 2; round++) {
        // No call left: the cell ends here, and nothing is charged for calls never made.
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
        run.inputTokens += answer.usage.inputTokens;
        run.outputTokens += answer.usage.outputTokens;
        run.latencyMs += answer.latencyMs;
        const checked = checkAnswer(ctx.column, answer.object, documents);
        if (checked.ok) {
          // A newer generation may have superseded this run while it was in flight: then its
          // result is dropped, uncharged.
          // The slot is held until the batched write lands, so answers never pile up unsaved
          // beyond the worker's slots: a crash re-asks at most one cell per slot. Until then the
          // cell stays running under this worker's lease, so a crash means a re-run, never a
          // second charge.
          try {
            await deps.complete({ job, base: ctx.base, value: checked.value, metadata: checked.metadata, charge, run, inputHash: inputHashIn(ctx.columns, ctx.column, ctx.values) });
          } catch (e) {
            if (e instanceof InsufficientCredits) return void (await noCredits());
            console.error("[cellwright] storing a cell's value failed:", e);
          }
          return;
        }
        correction = checked.problem;
      }
      return void (await fail("invalid_output", `The model's answer did not fit the column: ${correction}`, run));
    } catch (e) {
      if (e instanceof InsufficientCredits) return void (await noCredits());
      const c = classifyError(e);
      // Cancelled: the cell is already final. Shutting down: the queue hands the cell back.
      if (signal.reason instanceof CellCancelled || (signal.aborted && !c.retryable)) return;
      // Cells carry the safe message; the raw error is for the operator's log.
      if (c.detail) console.warn(`[cellwright] cell ${job.rowId}/${job.columnId} attempt ${job.attempts + 1}: ${c.code}: ${c.detail}`);
      if (c.retryable && job.attempts + 1 < config.ai.maxAttempts) {
        const delay = backoffMs(job.attempts + 1, config.ai.retryBaseMs, c.retryAfterMs);
        return void (await inTransaction(rt, (w) => retryCell(w, ctx.base, job, deps.owner, delay, c, run)));
      }
      await fail(c.code, c.message, run);
    }
  };
}

function promptInput(ctx: CellContext): PromptInput {
  const primary = ctx.columns.find((c) => c.isPrimary && c.id !== ctx.column.id);
  const inputs = ctx.column.inputColumnIds
    .map((id) => ctx.columns.find((c) => c.id === id))
    .filter((c): c is NonNullable<typeof c> => Boolean(c) && c!.id !== primary?.id)
    .map((column) => ({ column, value: ctx.values[column.id] ?? "" }));
  const named = [...(primary ? [primary] : []), ...inputs.map((i) => i.column)];
  const examples = ctx.examples.map((e) => ({ inputs: Object.fromEntries(named.map((c) => [c.name, e.values[c.id] ?? ""])), value: e.value }));
  return {
    baseName: ctx.base.name,
    column: ctx.column,
    primary: primary ? { column: primary, value: ctx.values[primary.id] ?? "" } : undefined,
    inputs,
    toolNames: ctx.column.tools,
    examples,
  };
}

function toolContext(rt: Runtime, ctx: CellContext, signal: AbortSignal, deps: RunnerDeps): ToolContext {
  const inputs: Record<string, string> = {};
  for (const id of ctx.column.inputColumnIds) {
    const c = ctx.columns.find((x) => x.id === id);
    if (c) inputs[c.name] = ctx.values[c.id] ?? "";
  }
  const primary = ctx.columns.find((c) => c.isPrimary);
  if (primary) inputs[primary.name] ??= ctx.values[primary.id] ?? "";
  return {
    config: rt.config,
    limits: toolLimitsFromConfig(rt.config),
    instructions: ctx.column.instructions,
    inputs,
    signal,
    workspaceId: ctx.base.workspaceId,
    ...deps.tools,
  };
}

