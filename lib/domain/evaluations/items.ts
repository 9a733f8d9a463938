import type { Tx } from "../../db/database.ts";
import type { Work } from "../../db/work.ts";
import { debit } from "../../credits/ledger.ts";
import { lockKeyRooms } from "../../credits/key-cap.ts";
import { InsufficientCredits, leaseFor, runRoomSql } from "../cells/index.ts";
import { addSpent, finishRuns, lockRun, transitionRun } from "../runs/record.ts";

// The one owner of `evaluation_items`: an evaluation's rows, which are also the evaluation
// worker's queue. A row is claimed under a lease, like a cell of a run; its outcome is fenced by
// that lease (a lost lease or a cancelled run changes nothing), and stored exactly when it is
// charged, under a key per evaluation row, so a resumed evaluation never pays twice.

export interface ClaimedItem {
  evaluationId: string;
  rowId: string;
  runId: string;
  attempts: number;
}

export interface ItemOutcome {
  got: string;
  correct: boolean;
  confidence: number | null;
  reason: string | null;
}

export interface ItemCharge {
  workspaceId: string;
  baseId: string;
  columnId: string;
  amount: number;
}

const FENCE = `evaluation_items.status = 'running' AND evaluation_items.lease_owner = $3`;

/** SQL: the rows evaluation run `r` has in flight, each to be charged when it answers. */
const IN_FLIGHT = (r: string) =>
  `(SELECT count(*) FROM evaluation_items x WHERE x.run_id = ${r}.id AND x.status = 'running')`;

/**
 * Leases up to `limit` ready rows of running evaluation runs, each run no more than its credits
 * left pay for beside its rows in flight (the cell engine's rule), so a capped evaluation asks
 * the model only for answers it can store.
 */
export async function claimItems(tx: Tx, owner: string, limit: number, leaseMs: number): Promise<ClaimedItem[]> {
  if (limit <= 0) return [];
  return tx.$queryRawUnsafe<ClaimedItem[]>(
    `WITH active AS (
       SELECT r.id, ${runRoomSql("r", "$2::int", IN_FLIGHT("r"))} AS room FROM runs r WHERE r.status = 'running' AND r.trigger = 'evaluation')
     UPDATE evaluation_items SET status = 'running', lease_owner = $1, lease_until = ${leaseFor("$3")}
     FROM (SELECT x.evaluation_id, x.row_id FROM active a CROSS JOIN LATERAL (
             SELECT e.evaluation_id, e.row_id, e.available_at FROM evaluation_items e
             WHERE e.run_id = a.id AND e.status = 'pending' AND e.available_at <= now()
             ORDER BY e.available_at, e.evaluation_id, e.row_id LIMIT a.room FOR UPDATE OF e SKIP LOCKED) x
           ORDER BY x.available_at, x.evaluation_id, x.row_id LIMIT $2) t
     WHERE evaluation_items.evaluation_id = t.evaluation_id AND evaluation_items.row_id = t.row_id
     RETURNING evaluation_items.evaluation_id AS "evaluationId", evaluation_items.row_id AS "rowId",
       evaluation_items.run_id AS "runId", evaluation_items.attempts`,
    owner,
    limit,
    leaseMs,
  );
}

export async function renewItemLeases(tx: Tx, owner: string, leaseMs: number): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE evaluation_items SET lease_until = ${leaseFor("$2")} WHERE status = 'running' AND lease_owner = $1`,
    owner,
    leaseMs,
  );
}

/**
 * Back to pending: the rows whose worker died (lease ran out); all running rows (`all`, when this
 * process owns the database alone); or `owner`'s, when it stops.
 */
export async function returnItemLeases(tx: Tx, which: { all?: boolean; owner?: string }): Promise<number> {
  return tx.$executeRawUnsafe(
    `UPDATE evaluation_items SET status = 'pending', lease_owner = NULL, lease_until = NULL
     WHERE status = 'running' AND ($1::boolean OR lease_owner = $2::text OR ($2::text IS NULL AND lease_until < now()))`,
    which.all ?? false,
    which.owner ?? null,
  );
}

/**
 * Stores a row's verdict with its charge. The run is locked first (as cells' outcomes do), so the
 * cap holds exactly: a row its budget cannot cover goes back to pending, uncharged, and the run
 * pauses; so does a row of a run paused meanwhile. Throws InsufficientCredits when the balance
 * cannot pay (nothing is stored then). Answers "stored", "handed_back" or "superseded" (the lease
 * was lost, or the run cancelled).
 */
export async function completeItem(
  w: Work,
  item: ClaimedItem,
  owner: string,
  outcome: ItemOutcome,
  charge: ItemCharge,
) {
  const run = await lockRun(w.tx, item.runId);
  const left = run.maxCredits === null ? Infinity : run.maxCredits - run.creditsSpent;
  // The key that started the evaluation, locked after its run as for cells (cells/budget.ts).
  const keyLeft = run.keyId ? ((await lockKeyRooms(w.tx, [run.keyId])).get(run.keyId)?.left ?? Infinity) : Infinity;
  if (run.status !== "running" || charge.amount > left || charge.amount > keyLeft) {
    const back = await release(w.tx, item, owner, 0);
    if (back && run.status === "running") await transitionRun(w, run, charge.amount > left ? "budget" : "key_cap");
    return back ? ("handed_back" as const) : ("superseded" as const);
  }
  const stored = await w.tx.$executeRawUnsafe(
    `UPDATE evaluation_items SET status = 'done', got = $4, correct = $5, confidence = $6, reason = $7, error_code = NULL,
       lease_owner = NULL, lease_until = NULL, finished_at = now()
     WHERE evaluation_id = $1 AND row_id = $2 AND ${FENCE}`,
    item.evaluationId,
    item.rowId,
    owner,
    outcome.got,
    outcome.correct,
    outcome.confidence,
    outcome.reason,
  );
  if (stored === 0) return "superseded" as const;
  const paid = await debit(w.tx, {
    ...charge,
    reason: "evaluation",
    rowId: item.rowId,
    idempotencyKey: `evaluation:${item.evaluationId}:${item.rowId}`,
    keyId: run.keyId,
  });
  if (!paid.ok) throw new InsufficientCredits();
  if (paid.charged) await addSpent(w.tx, run.id, charge.amount);
  if (left - charge.amount < run.cellCost && run.maxCredits !== null) await transitionRun(w, run, "budget");
  else if (keyLeft - charge.amount < run.cellCost) await transitionRun(w, run, "key_cap");
  await finishRuns(w, [run.id]);
  // Live views follow an evaluation's progress on the base's event stream, as they do a run's.
  w.emit({ type: "run.updated", workspaceId: run.workspaceId, baseId: run.baseId, runId: run.id });
  return "stored" as const;
}

/** A row that cannot be evaluated: it ends in error, uncharged. */
export async function failItem(w: Work, item: ClaimedItem, owner: string, error: { code: string; message: string }) {
  const n = await w.tx.$executeRawUnsafe(
    `UPDATE evaluation_items SET status = 'error', error_code = $4, reason = $5, attempts = attempts + 1,
       lease_owner = NULL, lease_until = NULL, finished_at = now()
     WHERE evaluation_id = $1 AND row_id = $2 AND ${FENCE}`,
    item.evaluationId,
    item.rowId,
    owner,
    error.code,
    error.message,
  );
  if (n > 0) await finishRuns(w, [item.runId]);
}

/** Back to pending after `delayMs`, one attempt spent (delay 0 and no attempt: handed back). */
export async function retryItem(tx: Tx, item: ClaimedItem, owner: string, delayMs: number): Promise<boolean> {
  return release(tx, item, owner, delayMs, 1);
}

async function release(tx: Tx, item: ClaimedItem, owner: string, delayMs: number, attempt = 0): Promise<boolean> {
  const n = await tx.$executeRawUnsafe(
    `UPDATE evaluation_items SET status = 'pending', lease_owner = NULL, lease_until = NULL, attempts = attempts + $5,
       available_at = now() + make_interval(secs => $4::float8 / 1000)
     WHERE evaluation_id = $1 AND row_id = $2 AND ${FENCE}`,
    item.evaluationId,
    item.rowId,
    owner,
    delayMs,
    attempt,
  );
  return n > 0;
}

/** A cancelled run's rows: waiting and running ones end cancelled (an answer still in flight is dropped). */
export async function cancelItemsOfRun(tx: Tx, runId: string): Promise<number> {
  return tx.$executeRawUnsafe(
    `UPDATE evaluation_items SET status = 'cancelled', error_code = 'cancelled', reason = 'The evaluation was cancelled.',
       lease_owner = NULL, lease_until = NULL, finished_at = now()
     WHERE run_id = $1 AND status IN ('pending', 'running')`,
    runId,
  );
}
