import type { Tx } from "../../db/database.ts";
import type { Work } from "../../db/work.ts";
import { addSpent, RUN_COLUMNS, transitionRun, type RunRow } from "../runs/record.ts";
import { fromStatusSql, toStatusSql } from "./transitions.ts";
import { cellKey as key, type CellRef } from "./types.ts";
import { lockKeyRooms } from "../../credits/key-cap.ts";
import { prepared } from "../../db/prepared.ts";

// A run's credit cap, enforced where credits are spent: a batch of answers is split into what
// the run's remaining budget covers and what it does not. The runs are locked first, so two
// workers storing answers of one run at the same moment take turns, and the cap holds exactly.
// The daily cap of the API key that started a run is enforced the same way: the keys' rows are
// locked after the runs (always in that order), and their day's charges summed, in the
// transaction that records the new charges.

type Charged = CellRef & { amount: number };

/**
 * SQL: how many more units of work (cells, or an evaluation's rows) run `r` may start, at most
 * `cap`: what its remaining credits pay for, less `inFlight` (SQL counting its units already
 * started, each of which will be charged when it answers). Claims ask this before a model call,
 * so a capped run never pays a provider for an answer it cannot store.
 */
export const runRoomSql = (
  r: string,
  cap: string,
  inFlight: string,
) => `CASE WHEN ${r}.max_credits IS NULL OR ${r}.cell_cost <= 0 THEN ${cap}
  ELSE GREATEST(0, LEAST(${cap}, (${r}.max_credits - ${r}.credits_spent) / ${r}.cell_cost - ${inFlight}))::int END`;

/**
 * Locks the runs of these cells (the runs that last queued them) in id order, so two
 * transactions never wait on each other in a cycle, and says which run each cell belongs to: one
 * statement, since every completion batch starts with it.
 */
export async function lockRunsOf(
  tx: Tx,
  refs: readonly CellRef[],
): Promise<{ runOf: Map<string, string>; runs: RunRow[] }> {
  const rows = await tx.$queryRawUnsafe<(RunRow & { cells: string[] })[]>(
    prepared(`WITH m AS (
       SELECT row_id, column_id, run_id FROM cells
       WHERE (row_id, column_id) IN (SELECT * FROM unnest($1::text[], $2::text[])) AND run_id IS NOT NULL)
     SELECT ${RUN_COLUMNS}, ARRAY(SELECT m.row_id || ':' || m.column_id FROM m WHERE m.run_id = runs.id) AS cells
     FROM runs WHERE id IN (SELECT run_id FROM m) ORDER BY id FOR UPDATE OF runs`),
    refs.map((r) => r.rowId),
    refs.map((r) => r.columnId),
  );
  const runOf = new Map(rows.flatMap((r) => r.cells.map((cell) => [cell, r.id] as const)));
  return { runOf, runs: rows.map(({ cells: _, ...run }) => run) };
}

/**
 * Locks the runs of the batch and returns the keys of the cells their budgets cannot cover. Call
 * it before the cells are stored; then `spend` with what was stored.
 */
export async function budgetSplit(tx: Tx, batch: readonly Charged[]) {
  const { runOf, runs: locked } = await lockRunsOf(tx, batch);
  const runs = new Map(
    locked.map((r) => [r.id, { ...r, left: r.maxCredits === null ? Infinity : r.maxCredits - r.creditsSpent }]),
  );
  const keys = await lockKeyRooms(
    tx,
    locked.flatMap((r) => (r.keyId ? [r.keyId] : [])),
  );
  const over = new Set<string>();
  /** Runs with an answer their key's cap could not pay for. */
  const keyCapped = new Set<string>();
  for (const c of batch) {
    const run = runs.get(runOf.get(key(c)) ?? "");
    if (!run) continue;
    const room = run.keyId ? keys.get(run.keyId) : undefined;
    if (c.amount > run.left) over.add(key(c));
    else if (room && c.amount > room.left) {
      over.add(key(c));
      keyCapped.add(run.id);
    } else {
      run.left -= c.amount;
      if (room) room.left -= c.amount;
    }
  }
  return { runOf, runs, over, keys, keyCapped };
}

/**
 * Records what the stored cells cost against their runs, hands back the answers the budget did
 * not cover (uncharged, pending again), and pauses each capped run that cannot pay for one more
 * cell.
 */
export async function spend(
  w: Work,
  owner: string,
  split: Awaited<ReturnType<typeof budgetSplit>>,
  stored: readonly Charged[],
  refused: readonly (CellRef & { generation: number })[],
) {
  const spent = new Map<string, number>();
  for (const c of stored) {
    const runId = split.runOf.get(key(c));
    if (runId) spent.set(runId, (spent.get(runId) ?? 0) + c.amount);
  }
  for (const [runId, amount] of spent) await addSpent(w.tx, runId, amount);
  if (refused.length > 0) {
    await w.tx.$executeRawUnsafe(
      `UPDATE cells SET status = ${toStatusSql("overBudget")}, lease_owner = NULL, lease_until = NULL, available_at = now(), updated_at = now()
       FROM unnest($1::text[], $2::text[], $3::int[]) AS t(row_id, column_id, generation)
       WHERE cells.row_id = t.row_id AND cells.column_id = t.column_id AND cells.generation = t.generation
         AND cells.lease_owner = $4 AND ${fromStatusSql("overBudget")}`,
      refused.map((r) => r.rowId),
      refused.map((r) => r.columnId),
      refused.map((r) => r.generation),
      owner,
    );
  }
  for (const run of split.runs.values()) {
    if (run.status !== "running" || run.cellCost <= 0) continue;
    if (run.maxCredits !== null && run.left < run.cellCost) await transitionRun(w, run, "budget");
    else if (split.keyCapped.has(run.id) || (split.keys.get(run.keyId ?? "")?.left ?? Infinity) < run.cellCost)
      await transitionRun(w, run, "key_cap");
  }
}
