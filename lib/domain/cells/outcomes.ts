import type { Tx } from "../../db/database.ts";
import type { Work } from "../../db/work.ts";
import { debitMany, type CreditCharge } from "../../credits/ledger.ts";
import type { BaseContext } from "../base-context.ts";
import type { CellMetadata } from "../cell-view.ts";
import { transitiveDependents } from "../graph.ts";
import { storableJson, storableText } from "../../text.ts";
import { budgetSplit, lockRunsOf, spend } from "./budget.ts";
import { patchValues, patchValuesSql } from "../rows/values.ts";
import { settleFinished } from "./settle.ts";
import { fromStatusSql, toStatusSql } from "./transitions.ts";
import { cellKey, type CellRef, type ClaimedCell, type AttemptRecord } from "./types.ts";
import { prepared } from "../../db/prepared.ts";
import { ATTEMPT_RECORD_COLUMNS, attemptRecordParams, attemptRecordsFrom, recordAttempts } from "./attempt-records.ts";
import { recordWrittenValues } from "./answer-history.ts";
import { answerWritten, currentValues, endedWithoutValue, outputsWritten } from "./written-values.ts";

// The worker side of the cells table: an attempt's outcome. Each outcome is fenced by the claim
// (this generation, still running under this worker's lease): an outcome for a superseded
// generation or a lost lease changes nothing.

export interface Completion {
  job: ClaimedCell;
  baseCtx: BaseContext;
  value: string;
  metadata: CellMetadata;
  charge: CreditCharge & { idempotencyKey: string };
  attempt: AttemptRecord;
  /** What the value was generated from (see domain/input-hash.ts). */
  inputHash: string;
  /** not_found: every provider asked had no data (HTTP and waterfall cells); the value is "". Default done. */
  outcome?: "done" | "not_found";
  /** Other columns of the row written with the value (column id → value): an HTTP column's outputs and formulas over them. */
  outputs?: Readonly<Record<string, string>>;
  /** The base's columns: how the history compares values and names what wrote each (optional: exact, "answer"). */
  columns?: readonly HistoryColumn[];
  /** A scheduled refresh's text change as the model judged it (schedule materiality "model"). */
  materiality?: Materiality;
}

export interface Materiality {
  /** false: the value is stored and recorded, but not announced as changed. */
  material: boolean;
  /** One line: what changed, or why it does not matter. */
  reason: string;
  /** What the judgment cost, charged with the value; null when the judge failed (uncharged). */
  charge: (CreditCharge & { idempotencyKey: string }) | null;
}

type HistoryColumn = { id: string; type: string; columnOptions?: unknown; fill?: unknown };

export type CompleteResult = "done" | "superseded";

/** The balance ran out while the call was in flight: thrown to roll the values back. */
export class InsufficientCredits extends Error {
  constructor() {
    super("insufficient credits");
    this.name = "InsufficientCredits";
  }
}

const cellEvent = (baseCtx: BaseContext, ref: { rowId: string; columnId: string }, status: string) =>
  ({
    type: "cell.updated",
    workspaceId: baseCtx.workspaceId,
    baseId: baseCtx.baseId,
    rowId: ref.rowId,
    columnId: ref.columnId,
    status,
  }) as const;

const chargesOf = (c: Completion) => (c.materiality?.charge ? [c.charge, c.materiality.charge] : [c.charge]);
/** What a completion costs its run: the value's charge and its judgment's. */
const costOf = (c: Completion) => chargesOf(c).reduce((sum, charge) => sum + charge.amount, 0);

const FENCE = (owner: string) => `cells.lease_owner = ${owner} AND ${fromStatusSql("complete")}`;

/**
 * Stores generated values with their charges and attempt records, in set-based statements for the
 * whole batch: a value is stored exactly when it is charged, and the charge's idempotency key
 * (one per cell generation) makes a generation impossible to charge twice, whatever its attempts. Throws
 * InsufficientCredits when a balance cannot cover the batch (nothing is stored then).
 */
export async function storeValues(
  w: Work,
  owner: string,
  completions: readonly Completion[],
): Promise<CompleteResult[]> {
  const { tx } = w;
  // A model may echo what it read: text PostgreSQL cannot hold is cleaned here, not refused.
  const batch = completions.map((c) => ({ ...c, value: storableText(c.value), metadata: storableJson(c.metadata) }));
  const split = await budgetSplit(
    tx,
    batch.map((p) => ({ ...p.job, amount: costOf(p) })),
  );
  const over = (p: (typeof batch)[number]) => split.over.has(cellKey(p.job));
  const within = batch.filter((p) => !over(p));
  // One statement for the cells, their rows' values and the attempt records: each statement is a round
  // trip (PostgreSQL) or a turn of the event loop (the embedded database), and the worker's slot
  // waits for this write. The rows' update also takes their locks, which settleFinished relies on.
  const stored = await tx.$queryRawUnsafe<
    {
      row_id: string;
      column_id: string;
      previous_value: string | null;
      previous_status: string | null;
      run_id: string | null;
    }[]
  >(
    prepared(`WITH t AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $6::text[], $7::text[], $8::boolean[]) AS t(row_id, column_id, generation, meta, hash, value, found)),
     -- What the cells held before this statement (its snapshot): the history's "before".
     prev AS (
       SELECT row_id, column_id, previous_value, previous_status, run_id FROM cells
       WHERE row_id = ANY($1::text[]) AND column_id = ANY($2::text[])),
     done AS (
       UPDATE cells SET status = CASE WHEN t.found THEN ${toStatusSql("complete")} ELSE ${toStatusSql("notFound")} END, error_code = NULL, error_message = NULL, metadata = t.meta::jsonb,
         input_hash = t.hash, previous_value = NULL, previous_status = NULL, checked_at = now(),
         finished_at = now(), stale = false, lease_owner = NULL, lease_until = NULL, updated_at = now()
       FROM t
       -- The keys as arrays too: they lead the planner to the primary key. Given only the join, it
       -- walked the status index's running entries, dead ones included, for every batch.
       WHERE cells.row_id = ANY($1::text[]) AND cells.column_id = ANY($2::text[])
         AND cells.row_id = t.row_id AND cells.column_id = t.column_id AND cells.generation = t.generation AND ${FENCE("$5")}
       RETURNING cells.row_id, cells.column_id),
     row_values AS (
       ${patchValuesSql("(SELECT t.row_id, t.column_id, t.value FROM t JOIN done ON done.row_id = t.row_id AND done.column_id = t.column_id) AS answered")}),
     records AS (
       INSERT INTO cell_runs (${ATTEMPT_RECORD_COLUMNS})
       SELECT r.* FROM ${attemptRecordsFrom(9)} JOIN done ON done.row_id = r.row_id AND done.column_id = r.column_id)
     SELECT done.row_id, done.column_id, prev.previous_value, prev.previous_status, prev.run_id
     FROM done JOIN prev ON prev.row_id = done.row_id AND prev.column_id = done.column_id`),
    within.map((p) => p.job.rowId),
    within.map((p) => p.job.columnId),
    within.map((p) => p.job.generation),
    within.map((p) => JSON.stringify(p.metadata)),
    owner,
    within.map((p) => p.inputHash),
    within.map((p) => p.value),
    within.map((p) => p.outcome !== "not_found"),
    ...attemptRecordParams(
      within.map((p) => ({
        job: p.job,
        workspaceId: p.baseCtx.workspaceId,
        outcome: p.outcome ?? "done",
        attempt: p.attempt,
      })),
    ),
  );
  const before = new Map(stored.map((s) => [cellKey({ rowId: s.row_id, columnId: s.column_id }), s]));
  const results = batch.map((p): CompleteResult => (before.has(cellKey(p.job)) ? "done" : "superseded"));
  const done = batch.filter((_, i) => results[i] === "done");
  // Outputs land with the value they came with, never for a superseded generation.
  const outputs = done.flatMap((p) =>
    Object.entries(p.outputs ?? {}).map(([columnId, value]) => ({ ...p.job, columnId, value })),
  );
  const outputsBefore = await currentValues(tx, outputs);
  await patchValues(tx, outputs);
  await recordWrittenValues(w, [
    ...done.map((p) => answerWritten(p, before.get(cellKey(p.job))!)),
    ...done.flatMap((p) => outputsWritten(p, before.get(cellKey(p.job))!.run_id, outputsBefore)),
  ]);
  const refused = batch.filter(over);
  await spend(
    w,
    owner,
    split,
    done.map((p) => ({ ...p.job, amount: costOf(p) })),
    refused.map((p) => p.job),
  );
  for (const p of refused) w.emit(cellEvent(p.baseCtx, p.job, "pending"));
  if (done.length === 0) return results;

  // Each charge names the key that started its run: the key's daily cap sums them.
  const keyOf = (p: (typeof batch)[number]) => split.runs.get(split.runOf.get(cellKey(p.job)) ?? "")?.keyId ?? null;
  if (
    !(await debitMany(
      tx,
      done.flatMap((p) => chargesOf(p).map((c) => ({ ...c, keyId: keyOf(p) }))),
    ))
  )
    throw new InsufficientCredits();
  for (const p of done) w.emit(cellEvent(p.baseCtx, p.job, p.outcome ?? "done"));
  await settleFinished(
    w,
    done.map((p) => ({ baseCtx: p.baseCtx, rowId: p.job.rowId })),
  );
  w.emit({ type: "work.available" });
  return results;
}

/** Ends the cell in error and fails the cells of the row that wait for it (input_failed). */
export async function failCell(
  w: Work,
  baseCtx: BaseContext,
  job: ClaimedCell,
  owner: string,
  error: { code: string; message: string },
  columns: readonly { id: string; inputColumnIds: string[]; name: string }[],
  attempt?: AttemptRecord,
): Promise<boolean> {
  // The run first, as storeValues does: whichever outcome of the run commits last finishes it.
  await lockRunsOf(w.tx, [job]);
  const ok = await fenced(
    w.tx,
    job,
    owner,
    `status = ${toStatusSql("fail")}, error_code = $5, error_message = $6, finished_at = now(), attempts = attempts + 1`,
    [error.code, error.message.slice(0, 2_000)],
  );
  if (!ok) return false;
  if (attempt)
    await recordAttempts(w.tx, [
      { job, workspaceId: baseCtx.workspaceId, outcome: "error", attempt, errorCode: error.code },
    ]);
  const ended: CellRef[] = [job];
  w.emit(cellEvent(baseCtx, job, "error"));
  const failedName = columns.find((c) => c.id === job.columnId)?.name ?? job.columnId;
  // Inputs only: a column whose run condition reads this one still runs, and its condition may
  // ask for exactly this (`{"column": …, "status": "error"}`).
  const inputsOnly = columns.map((c) => ({ id: c.id, inputColumnIds: c.inputColumnIds }));
  const downstream = [...transitiveDependents(inputsOnly, [job.columnId])];
  if (downstream.length > 0) {
    const hit = await w.tx.$queryRawUnsafe<{ column_id: string }[]>(
      `UPDATE cells SET status = ${toStatusSql("failInput")}, error_code = 'input_failed', error_message = $3, finished_at = now(),
         updated_at = now(), lease_owner = NULL, lease_until = NULL
       WHERE row_id = $1 AND column_id = ANY($2::text[]) AND ${fromStatusSql("failInput")} RETURNING column_id`,
      job.rowId,
      downstream,
      `Input column "${failedName}" ended in error (${error.code}).`,
    );
    for (const h of hit) {
      ended.push({ rowId: job.rowId, columnId: h.column_id });
      w.emit(cellEvent(baseCtx, { rowId: job.rowId, columnId: h.column_id }, "error"));
    }
  }
  await recordWrittenValues(w, await endedWithoutValue(w.tx, baseCtx, ended, "error"));
  await w.tx.$executeRawUnsafe(`SELECT 1 FROM rows WHERE id = $1 FOR UPDATE`, job.rowId);
  await settleFinished(w, [{ baseCtx, rowId: job.rowId }]);
  return true;
}

/** Puts the cell back in the queue after a transient failure, due after `delayMs`. */
export async function retryCell(
  w: Work,
  baseCtx: BaseContext,
  job: ClaimedCell,
  owner: string,
  delayMs: number,
  error: { code: string; message: string },
  attempt?: AttemptRecord,
): Promise<boolean> {
  const ok = await fenced(
    w.tx,
    job,
    owner,
    `status = ${toStatusSql("retry")}, attempts = attempts + 1, error_code = $5, error_message = $6,
     available_at = now() + make_interval(secs => $7::double precision / 1000)`,
    [error.code, error.message.slice(0, 2_000), delayMs],
  );
  if (!ok) return false;
  if (attempt)
    await recordAttempts(w.tx, [
      { job, workspaceId: baseCtx.workspaceId, outcome: "retry", attempt, errorCode: error.code },
    ]);
  w.emit(cellEvent(baseCtx, job, "pending"));
  return true;
}

/** Moves one claimed cell out of `running` if this worker still owns this generation of it. */
async function fenced(tx: Tx, job: ClaimedCell, owner: string, set: string, params: unknown[]): Promise<boolean> {
  const n = await tx.$executeRawUnsafe(
    `UPDATE cells SET ${set}, lease_owner = NULL, lease_until = NULL, updated_at = now()
     WHERE row_id = $1 AND column_id = $2 AND generation = $3 AND ${FENCE("$4")}`,
    job.rowId,
    job.columnId,
    job.generation,
    owner,
    ...params,
  );
  return n > 0;
}
