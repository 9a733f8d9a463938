import type { Runtime } from "../runtime.ts";
import type { CellJob, CellWorker } from "../jobs/types.ts";
import { CellCancelled } from "../jobs/worker-slots.ts";
import { inTransaction } from "../db/work.ts";
// The module, not the llm barrel: the AI SDK loads with the first question, not at boot.
import { classifyError } from "./llm/classify-error.ts";
import { createCellContextLoader } from "./cell-context.ts";
import type { AskDeps } from "./ask-column.ts";
import { failCell, InsufficientCredits, retryCell, type Completion, type RunRecord } from "../domain/cells/index.ts";
import { backoffMs } from "./backoff.ts";
import { inputHashIn } from "../domain/input-hash.ts";

export interface RunnerDeps extends AskDeps {
  owner: string;
  complete: (c: Completion) => Promise<unknown>;
}

const chargeKey = (job: CellJob) => `cell:${job.rowId}:${job.columnId}:${job.generation}`;

/** Runs one claimed cell: build the prompt, call the model with the column's tools, store the outcome. */
export function createCellWorker(rt: Runtime, deps: RunnerDeps): CellWorker {
  const { config } = rt;
  const loadContext = createCellContextLoader(rt.db.prisma, deps.owner);
  const runCell = async (job: CellJob, signal: AbortSignal) => {
    const ctx = await loadContext(job);
    // Aborted before it started: cancelled while it waited in the buffer.
    if (!ctx || signal.aborted) return;
    const charge = {
      workspaceId: ctx.base.workspaceId,
      amount: config.credits.cellRun,
      reason: "cell_run",
      baseId: ctx.base.baseId,
      rowId: job.rowId,
      columnId: job.columnId,
      idempotencyKey: chargeKey(job),
    };
    const fail = (code: string, message: string, run?: RunRecord) =>
      inTransaction(rt, (w) => failCell(w, ctx.base, job, deps.owner, { code, message }, ctx.columns, run));
    const noCredits = () =>
      fail("insufficient_credits", "The workspace has no credits left; top up and run the cell again.");

    if (ctx.failedInputs.length > 0) {
      const names = ctx.failedInputs.map((c) => `"${c.name}"`).join(", ");
      return void (await fail("input_failed", `Input column ${names} ended in error.`));
    }
    let run: RunRecord | undefined;
    try {
      const { askColumn, startAsking } = await import("./ask-column.ts");
      const asking = startAsking(rt, ctx.column, ctx.callsSpent);
      run = asking.run;
      // Checked before the call so an empty balance costs no model call; the charge itself is made
      // when the value is stored (see completeCell).
      if (ctx.credits !== null && ctx.credits < charge.amount) return void (await noCredits());
      const question = {
        baseName: ctx.base.name,
        workspaceId: ctx.base.workspaceId,
        column: ctx.column,
        columns: ctx.columns,
        values: ctx.values,
        examples: ctx.examples,
      };
      const checked = await askColumn(rt, deps, question, asking, signal);
      if (!checked.ok)
        return void (await fail(
          "invalid_output",
          `The model's answer did not fit the column: ${checked.problem}`,
          run,
        ));
      // A newer generation may have superseded this run while it was in flight: then its result
      // is dropped, uncharged. The slot is held until the batched write lands, so answers never
      // pile up unsaved beyond the worker's slots: a crash re-asks at most one cell per slot.
      // Until then the cell stays running under this worker's lease, so a crash means a re-run,
      // never a second charge.
      try {
        await deps.complete({
          job,
          base: ctx.base,
          value: checked.value,
          metadata: checked.metadata,
          charge,
          run,
          inputHash: inputHashIn(ctx.columns, ctx.column, ctx.values),
        });
      } catch (e) {
        if (e instanceof InsufficientCredits) return void (await noCredits());
        console.error("[cellwright] storing a cell's value failed:", e);
      }
    } catch (e) {
      if (e instanceof InsufficientCredits) return void (await noCredits());
      const c = classifyError(e);
      // Cancelled: the cell is already final. Shutting down: the queue hands the cell back.
      if (signal.reason instanceof CellCancelled || (signal.aborted && !c.retryable)) return;
      // Cells carry the safe message; the raw error is for the operator's log.
      if (c.detail)
        console.warn(
          `[cellwright] cell ${job.rowId}/${job.columnId} attempt ${job.attempts + 1}: ${c.code}: ${c.detail}`,
        );
      if (c.retryable && job.attempts + 1 < config.ai.maxAttempts) {
        const delay = backoffMs(job.attempts + 1, config.ai.retryBaseMs, c.retryAfterMs);
        return void (await inTransaction(rt, (w) => retryCell(w, ctx.base, job, deps.owner, delay, c, run)));
      }
      await fail(c.code, c.message, run);
    }
  };
  return Object.assign(runCell, { prepare: (jobs: readonly CellJob[]) => loadContext.readAhead(jobs) });
}
