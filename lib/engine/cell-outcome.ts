import type { Work } from "../db/work.ts";
import type { Tx } from "../db/database.ts";
import type { CellJob } from "../jobs/types.ts";
import type { CellMetadata } from "../domain/cell-view.ts";
import type { BaseContext } from "../domain/bases.ts";
import { transitiveDependents } from "../domain/graph.ts";
import { settleRows } from "../domain/row-settled.ts";
import { newId } from "../ids.ts";
import { debit, type CreditCharge } from "../credits/ledger.ts";

export interface RunRecord {
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  costUsd?: number | null;
}

// Each outcome updates its own cell first and takes the row's lock second, then counts the row's
// open cells: whichever transaction takes the lock last sees every sibling's outcome, so
// "all cells terminal" is decided exactly once.
const lockRow = (tx: Tx, rowId: string) => tx.$executeRawUnsafe(`SELECT 1 FROM rows WHERE id = $1 FOR UPDATE`, rowId);

/** Moves the cell out of `running` if this worker still owns this generation of it. */
async function transition(tx: Tx, job: CellJob, owner: string, set: string, params: unknown[]): Promise<boolean> {
  const n = await tx.$executeRawUnsafe(
    `UPDATE cells SET ${set}, lease_owner = NULL, lease_until = NULL, updated_at = now()
     WHERE row_id = $1 AND column_id = $2 AND generation = $3 AND status = 'running' AND lease_owner = $4`,
    job.rowId,
    job.columnId,
    job.generation,
    owner,
    ...params,
  );
  return n > 0;
}

async function recordRun(tx: Tx, job: CellJob, workspaceId: string, outcome: string, run: RunRecord | undefined, errorCode?: string) {
  if (!run) return;
  await tx.cellRun.create({
    data: { id: newId.cellRun(), rowId: job.rowId, columnId: job.columnId, workspaceId, generation: job.generation, attempt: job.attempts + 1, outcome, errorCode, ...run },
  });
}

async function settleIfDone(w: Work, base: BaseContext, rowId: string) {
  await lockRow(w.tx, rowId);
  const open = await w.tx.cell.count({ where: { rowId, status: { in: ["pending", "running"] } } });
  if (open === 0) await settleRows(w, base, [rowId]);
}

const cellEvent = (base: BaseContext, job: CellJob, status: string) =>
  ({ type: "cell.updated", workspaceId: base.workspaceId, baseId: base.baseId, rowId: job.rowId, columnId: job.columnId, status }) as const;

export type CompleteResult = "done" | "superseded" | "insufficient_credits";

/**
 * Stores the value and charges the run in one transaction: a run is charged only when its value
 * is stored, and the charge's idempotency key (one per cell generation) makes a resumed run
 * impossible to charge twice.
 */
export async function completeCell(
  w: Work,
  base: BaseContext,
  job: CellJob,
  owner: string,
  value: string,
  metadata: CellMetadata,
  charge: CreditCharge,
  run?: RunRecord,
): Promise<CompleteResult> {
  const ok = await transition(w.tx, job, owner, `status = 'done', error_code = NULL, error_message = NULL, metadata = $5::jsonb, finished_at = now(), stale = false`, [JSON.stringify(metadata)]);
  if (!ok) return "superseded";
  const paid = await debit(w.tx, charge);
  // The balance ran out while the call was in flight: throwing rolls the value back.
  if (!paid.ok) throw new InsufficientCredits();
  const sql = value === ""
    ? `UPDATE rows SET "values" = "values" - $2, updated_at = now() WHERE id = $1`
    : `UPDATE rows SET "values" = jsonb_set("values", ARRAY[$2], to_jsonb($3::text)), updated_at = now() WHERE id = $1`;
  await w.tx.$executeRawUnsafe(sql, job.rowId, job.columnId, ...(value === "" ? [] : [value]));
  await recordRun(w.tx, job, base.workspaceId, "done", run);
  w.emit(cellEvent(base, job, "done"));
  w.emit({ type: "work.available" });
  await settleIfDone(w, base, job.rowId);
  return "done";
}

export class InsufficientCredits extends Error {
  constructor() {
    super("insufficient credits");
    this.name = "InsufficientCredits";
  }
}

/** Ends the cell in error and fails the cells of the row that depend on it (input_failed). */
export async function failCell(w: Work, base: BaseContext, job: CellJob, owner: string, code: string, message: string, columns: { id: string; inputColumnIds: string[]; name: string }[], run?: RunRecord): Promise<boolean> {
  const ok = await transition(w.tx, job, owner, `status = 'error', error_code = $5, error_message = $6, finished_at = now(), attempts = attempts + 1`, [code, message.slice(0, 2_000)]);
  if (!ok) return false;
  await recordRun(w.tx, job, base.workspaceId, "error", run, code);
  w.emit(cellEvent(base, job, "error"));
  const failedName = columns.find((c) => c.id === job.columnId)?.name ?? job.columnId;
  const downstream = [...transitiveDependents(columns, [job.columnId])];
  if (downstream.length > 0) {
    const hit = await w.tx.$queryRawUnsafe<{ column_id: string }[]>(
      `UPDATE cells SET status = 'error', error_code = 'input_failed', error_message = $3, finished_at = now(), updated_at = now(),
         lease_owner = NULL, lease_until = NULL
       WHERE row_id = $1 AND column_id = ANY($2::text[]) AND status = 'pending' RETURNING column_id`,
      job.rowId,
      downstream,
      `Input column "${failedName}" ended in error (${code}).`,
    );
    for (const h of hit) w.emit(cellEvent(base, { ...job, columnId: h.column_id }, "error"));
  }
  await settleIfDone(w, base, job.rowId);
  return true;
}

/** Puts the cell back in the queue after a transient failure, due after `delayMs`. */
export async function retryCell(w: Work, base: BaseContext, job: CellJob, owner: string, delayMs: number, code: string, message: string, run?: RunRecord): Promise<boolean> {
  const ok = await transition(
    w.tx,
    job,
    owner,
    `status = 'pending', attempts = attempts + 1, error_code = $5, error_message = $6, available_at = now() + make_interval(secs => $7::double precision / 1000)`,
    [code, message.slice(0, 2_000), delayMs],
  );
  if (ok) await recordRun(w.tx, job, base.workspaceId, "retry", run, code);
  if (ok) w.emit(cellEvent(base, job, "pending"));
  return ok;
}
