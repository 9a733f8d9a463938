import type { Tx } from "../../db/database.ts";
import type { Work } from "../../db/work.ts";
import { debit } from "../../credits/ledger.ts";
import { lockKeyRooms } from "../../credits/key-cap.ts";
import { InsufficientCredits, leaseFor } from "../cells/index.ts";
import { addSpent, finishRuns, lockRun, transitionRun } from "../runs/record.ts";
import type { PlannedQuery, StoredCriterion } from "./schemas.ts";
import { findView } from "./view.ts";

// The find worker's side of the `finds` table: a find is claimed under a lease (one process works
// it at a time), its steps are charged under keys of their own (a resumed find never pays twice),
// and it stops at its target, when its searches run dry, at its budget, or when cancelled.

export interface FindJob {
  id: string;
  workspaceId: string;
  baseId: string;
  runId: string;
  query: string;
  criteria: StoredCriterion[];
  entity: { type?: string; description?: string } | null;
  target: number;
  includeUnclear: boolean;
  excludeExisting: boolean;
  preview: boolean;
  phase: string;
  queries: PlannedQuery[];
  attempts: number;
}

const FENCE = `finds.lease_owner = $2 AND finds.phase <> 'done'`;

/** Leases finds with work left whose run is running (a paused or cancelled run's find waits, or ends). */
export async function claimFinds(tx: Tx, owner: string, limit: number, leaseMs: number): Promise<FindJob[]> {
  if (limit <= 0) return [];
  return tx.$queryRawUnsafe<FindJob[]>(
    `UPDATE finds SET lease_owner = $1, lease_until = ${leaseFor("$3")}, updated_at = now()
     FROM (SELECT f.id FROM finds f JOIN runs r ON r.id = f.run_id
           WHERE f.phase <> 'done' AND f.available_at <= now() AND (f.lease_owner IS NULL OR f.lease_until < now())
             AND r.status IN ('running', 'cancelled')
           ORDER BY f.available_at, f.id LIMIT $2 FOR UPDATE OF f SKIP LOCKED) t
     WHERE finds.id = t.id
     RETURNING finds.id, finds.workspace_id AS "workspaceId", finds.base_id AS "baseId", finds.run_id AS "runId",
       finds.query, finds.criteria, finds.entity, finds.target, finds.include_unclear AS "includeUnclear",
       finds.exclude_existing AS "excludeExisting", finds.preview, finds.phase, finds.queries, finds.attempts`,
    owner,
    limit,
    leaseMs,
  );
}

export async function renewFindLease(tx: Tx, findId: string, owner: string, leaseMs: number): Promise<boolean> {
  const n = await tx.$executeRawUnsafe(
    `UPDATE finds SET lease_until = ${leaseFor("$3")} WHERE id = $1 AND ${FENCE}`,
    findId,
    owner,
    leaseMs,
  );
  return n > 0;
}

/** Hands the find back (this process stops); another claims it once free. */
export async function releaseFind(tx: Tx, findId: string, owner: string, delayMs = 0): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE finds SET lease_owner = NULL, lease_until = NULL, available_at = now() + make_interval(secs => $3::float8 / 1000)
     WHERE id = $1 AND lease_owner = $2`,
    findId,
    owner,
    delayMs,
  );
}

/**
 * A find that failed on something passing (the model's or a provider's hiccup) is tried again
 * after `delayMs`; false once its attempts are spent (the caller ends it in error).
 */
export async function retryFind(tx: Tx, findId: string, owner: string, delayMs: number, maxAttempts: number) {
  const n = await tx.$executeRawUnsafe(
    `UPDATE finds SET attempts = attempts + 1, lease_owner = NULL, lease_until = NULL,
       available_at = now() + make_interval(secs => $3::float8 / 1000), updated_at = now()
     WHERE id = $1 AND ${FENCE} AND attempts + 1 < $4`,
    findId,
    owner,
    delayMs,
    maxAttempts,
  );
  return n > 0;
}

/** The run's state, for the worker to stop on a pause or a cancel. */
export async function runStatusOf(tx: Tx, runId: string): Promise<string> {
  const [r] = await tx.$queryRawUnsafe<{ status: string }[]>(`SELECT status FROM runs WHERE id = $1`, runId);
  return r?.status ?? "cancelled";
}

/** Stores the planned searches (and their next pages); false when the lease was lost. */
export async function saveQueries(tx: Tx, find: FindJob, owner: string, queries: PlannedQuery[]): Promise<boolean> {
  const n = await tx.$executeRawUnsafe(
    `UPDATE finds SET queries = $3::jsonb, phase = 'search', updated_at = now() WHERE id = $1 AND ${FENCE}`,
    find.id,
    owner,
    JSON.stringify(queries),
  );
  return n > 0;
}

export interface StepCharge {
  amount: number;
  reason: "find_plan" | "find_search" | "find_scrape" | "find_verify";
  /** Unique per step of the find: a step done twice is charged once. */
  key: string;
  candidateId?: string;
}

/**
 * Charges a step of the find, its run locked first so the cap holds exactly. "stopped" when the run
 * is not running any more, or its budget (or its key's daily cap) cannot pay: the run pauses and
 * nothing is charged. Throws InsufficientCredits when the workspace cannot pay.
 */
export async function chargeStep(
  w: Work,
  find: FindJob,
  charges: readonly StepCharge[],
): Promise<"charged" | "stopped"> {
  const run = await lockRun(w.tx, find.runId);
  const total = charges.reduce((sum, c) => sum + c.amount, 0);
  const left = run.maxCredits === null ? Infinity : run.maxCredits - run.creditsSpent;
  const keyLeft = run.keyId ? ((await lockKeyRooms(w.tx, [run.keyId])).get(run.keyId)?.left ?? Infinity) : Infinity;
  if (run.status !== "running") return "stopped";
  if (total > left || total > keyLeft) {
    await transitionRun(w, run, total > left ? "budget" : "key_cap");
    await w.tx.$executeRawUnsafe(`UPDATE finds SET stop_reason = 'budget', updated_at = now() WHERE id = $1`, find.id);
    announce(w, find);
    return "stopped";
  }
  for (const c of charges) {
    const paid = await debit(w.tx, {
      workspaceId: find.workspaceId,
      amount: c.amount,
      reason: c.reason,
      baseId: find.baseId,
      idempotencyKey: c.key,
      keyId: run.keyId,
    });
    if (!paid.ok) throw new InsufficientCredits();
    if (!paid.charged) continue;
    await addSpent(w.tx, run.id, c.amount);
    await w.tx.$executeRawUnsafe(
      `UPDATE finds SET credits_spent = credits_spent + $2, updated_at = now() WHERE id = $1`,
      find.id,
      c.amount,
    );
    if (c.candidateId)
      await w.tx.$executeRawUnsafe(
        `UPDATE find_candidates SET credits = credits + $2 WHERE id = $1`,
        c.candidateId,
        c.amount,
      );
  }
  return "charged";
}

/**
 * Ends the find's looking: `reason` says why. Its run finishes once the cells of the rows it added
 * are done (a cancelled run stays cancelled); find.completed goes out with the find's figures.
 */
export async function finishFind(
  w: Work,
  find: FindJob,
  owner: string,
  reason: "target" | "exhausted" | "cancelled" | "preview" | "error",
  error?: { code: string; message: string },
): Promise<boolean> {
  // The run first, as chargeStep locks it: the same order in every writer of a find.
  await lockRun(w.tx, find.runId);
  const n = await w.tx.$executeRawUnsafe(
    `UPDATE finds SET phase = 'done', stop_reason = $3, error_code = $4, error_message = $5, finished_at = now(),
       lease_owner = NULL, lease_until = NULL, updated_at = now()
     WHERE id = $1 AND ${FENCE}`,
    find.id,
    owner,
    reason,
    error?.code ?? null,
    error?.message ?? null,
  );
  if (n === 0) return false;
  // A candidate left mid-verification waits for the next extension.
  await w.tx.$executeRawUnsafe(
    `UPDATE find_candidates SET status = 'pending', lease_owner = NULL, lease_until = NULL WHERE find_id = $1 AND status = 'running'`,
    find.id,
  );
  await finishRuns(w, [find.runId]);
  const view = await findView(w.tx, find.workspaceId, find.baseId, find.id);
  await w.publish({ type: "find.completed", workspaceId: find.workspaceId, baseId: find.baseId, find: { ...view } });
  announce(w, find);
  return true;
}

export function announce(w: Pick<Work, "emit">, find: Pick<FindJob, "id" | "workspaceId" | "baseId" | "runId">) {
  w.emit({ type: "find.updated", workspaceId: find.workspaceId, baseId: find.baseId, findId: find.id });
  w.emit({ type: "run.updated", workspaceId: find.workspaceId, baseId: find.baseId, runId: find.runId });
}
