import type { Runtime } from "../runtime.ts";
import type { CellJob, CellWorker } from "../jobs/types.ts";
import { CellCancelled } from "../jobs/worker-slots.ts";
import { inTransaction } from "../db/work.ts";
// The module, not the llm barrel: the AI SDK loads with the first question, not at boot.
import { classifyError } from "./llm/classify-error.ts";
import { createCellContextLoader, type CellContext } from "./cell-context.ts";
import type { AskDeps } from "./ask-column.ts";
import {
  failCell,
  InsufficientCredits,
  retryCell,
  skipCell,
  type Completion,
  type AttemptRecord,
  type Materiality,
} from "../domain/cells/index.ts";
import { runIfHolds } from "../domain/columns/index.ts";
import { isAppError } from "../errors.ts";
import { backoffMs } from "./backoff.ts";
import { inputHashIn } from "../domain/input-hash.ts";
import { fillOf } from "../domain/fill/schema.ts";
import { formulasAfterWrite } from "../domain/formulas/after-write.ts";
import type { HttpDeps } from "./http/http-call.ts";

export interface AttemptDeps extends AskDeps {
  owner: string;
  complete: (c: Completion) => Promise<unknown>;
  /** What HTTP columns and waterfall steps call providers with. */
  http: HttpDeps;
}

// Loaded with the first cell that needs them, then held: a dynamic import costs a module lookup
// per call, and these run for every cell.
let fillModule: Promise<typeof import("./fill/fill-attempt.ts")> | undefined;
let askModule: Promise<typeof import("./ask-column.ts")> | undefined;
let materialityModule: Promise<typeof import("./materiality.ts")> | undefined;

// The contexts loaded together share their column records, so a column's fill is parsed once a
// batch rather than once a cell.
const fills = new WeakMap<CellContext["column"], ReturnType<typeof fillOf>>();
function fillOfColumn(column: CellContext["column"]): ReturnType<typeof fillOf> {
  if (!fills.has(column)) fills.set(column, fillOf(column));
  return fills.get(column) ?? null;
}

const chargeKey = (job: CellJob) => `cell:${job.rowId}:${job.columnId}:${job.generation}`;

/** One attempt of a claimed cell: build the prompt, call the model with the column's tools, store the outcome. */
export function createCellWorker(rt: Runtime, deps: AttemptDeps): CellWorker {
  const { config } = rt;
  const loadContext = createCellContextLoader(rt.db.prisma, deps.owner);
  const attemptCell = async (job: CellJob, signal: AbortSignal) => {
    const context = await loadContext(job);
    // Aborted before it started: cancelled while it waited in the buffer.
    if (!context || signal.aborted) return;
    const charge = {
      workspaceId: context.baseCtx.workspaceId,
      amount: config.credits.cellCost,
      reason: "cell_run",
      baseId: context.baseCtx.baseId,
      rowId: job.rowId,
      columnId: job.columnId,
      idempotencyKey: chargeKey(job),
    };
    const fail = (code: string, message: string, attempt?: AttemptRecord) =>
      inTransaction(rt, (w) =>
        failCell(w, context.baseCtx, job, deps.owner, { code, message }, context.columns, attempt),
      );
    const noCredits = () =>
      fail("insufficient_credits", "The workspace has no credits left; top up and run the cell again.");

    // The run condition first: a row it leaves out is skipped before anything else is asked of it
    // (no model call, no credit check, no charge). It reads the row as committed now, its
    // condition's AI cells finished (they are dependencies, so this cell waited for them).
    if (context.column.runIf != null) {
      let holds: boolean;
      try {
        holds = await runIfHolds(rt.db.prisma, job.sheetId, job.rowId, context.column, context.columns);
      } catch (e) {
        if (!isAppError(e)) throw e;
        return void (await fail(e.code, e.message));
      }
      if (!holds) {
        const hash = inputHashIn(context.columns, context.column, context.values);
        return void (await inTransaction(rt, (w) => skipCell(w, context.baseCtx, job, deps.owner, hash)));
      }
    }
    if (context.failedInputs.length > 0) {
      const names = context.failedInputs.map((c) => `"${c.name}"`).join(", ");
      return void (await fail("input_failed", `Input column ${names} ended in error.`));
    }
    let attempt: AttemptRecord | undefined;
    // A newer generation may have superseded this attempt while it was in flight: then its result
    // is dropped, uncharged. The slot is held until the batched write lands, so answers never
    // pile up unsaved beyond the worker's slots: a crash re-asks at most one cell per slot.
    // Until then the cell stays running under this worker's lease, so a crash means another
    // attempt, never a second charge.
    // A scheduled refresh that asks for it has the model judge a text change before it is stored.
    // Outside store's catch: an abort mid-judgment ends the attempt like one mid-answer.
    const judgeChange = async (value: string): Promise<Materiality | undefined> => {
      if (!context.judgeChanges) return undefined;
      const m = await (materialityModule ??= import("./materiality.ts"));
      if (!m.needsJudgment(context.column, context, value)) return undefined;
      const verdict = await m.judgeMateriality(rt, deps.limiter, {
        column: context.column,
        before: context.previousValue,
        after: value,
        signal,
      });
      const cost = {
        amount: config.credits.materialityCost,
        reason: "change_judged",
        idempotencyKey: `judged:${chargeKey(job)}`,
      };
      return {
        material: verdict.material,
        reason: verdict.reason,
        charge: verdict.charged ? { ...charge, ...cost } : null,
      };
    };
    const store = async (
      answer: Pick<Completion, "value" | "metadata" | "charge" | "attempt" | "outcome" | "outputs">,
    ) => {
      const materiality = await judgeChange(answer.value);
      try {
        // Formulas over this column (or over the outputs it writes) follow its value at once.
        const written = { ...answer.outputs, [job.columnId]: answer.value };
        const formulas = await formulasAfterWrite(context.columns, context.values, written);
        await deps.complete({
          job,
          baseCtx: context.baseCtx,
          inputHash: inputHashIn(context.columns, context.column, context.values),
          ...answer,
          outputs: { ...answer.outputs, ...formulas },
          columns: context.columns,
          materiality,
        });
      } catch (e) {
        if (e instanceof InsufficientCredits) return void (await noCredits());
        console.error("[cellwright] storing a cell's value failed:", e);
      }
    };
    const fill = fillOfColumn(context.column);
    try {
      if (fill?.kind === "http" || fill?.kind === "waterfall") {
        // Providers are paid for by the call: an empty balance asks none of them.
        if (context.credits !== null && context.credits <= 0) return void (await noCredits());
        const { answerByFill } = await (fillModule ??= import("./fill/fill-attempt.ts"));
        const filled = await answerByFill(rt, { http: deps.http, ask: deps }, context, fill, signal);
        attempt = filled.attempt;
        return void (await store({
          value: filled.value,
          metadata: filled.metadata,
          charge: { ...charge, amount: filled.credits, reason: "provider_call" },
          attempt,
          outcome: filled.outcome === "found" ? "done" : "not_found",
          outputs: filled.outputs,
        }));
      }
      const { askColumn, startAsking } = await (askModule ??= import("./ask-column.ts"));
      const asking = startAsking(rt, context.column, context.callsSpent);
      attempt = asking.attempt;
      // Checked before the call so an empty balance costs no model call; the charge itself is made
      // when the value is stored (see completeCell).
      if (context.credits !== null && context.credits < charge.amount) return void (await noCredits());
      const question = {
        baseName: context.baseCtx.name,
        workspaceId: context.baseCtx.workspaceId,
        column: context.column,
        columns: context.columns,
        values: context.values,
        examples: context.examples,
      };
      const checked = await askColumn(rt, deps, question, asking, signal);
      if (!checked.ok)
        return void (await fail(
          "invalid_output",
          `The model's answer did not fit the column: ${checked.problem}`,
          attempt,
        ));
      await store({ value: checked.value, metadata: checked.metadata, charge, attempt });
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
        return void (await inTransaction(rt, (w) => retryCell(w, context.baseCtx, job, deps.owner, delay, c, attempt)));
      }
      await fail(c.code, c.message, attempt);
    }
  };
  return Object.assign(attemptCell, { prepare: (jobs: readonly CellJob[]) => loadContext.readAhead(jobs) });
}
