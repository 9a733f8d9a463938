import type { Tx } from "../../db/database.ts";
import type { Work } from "../../db/work.ts";
import { addSpent, lockRuns, transitionRun } from "../runs/record.ts";
import { fromStatusSql, toStatusSql } from "./transitions.ts";
import type { CellRef } from "./types.ts";

// A run's credit cap, enforced where credits are spent: a batch of answers is split into what
// the run's remaining budget covers and what it does not. The runs are locked first, so two
// workers storing answers of one run at the same moment take turns, and the cap holds exactly.

type Charged = CellRef & { amount: number };

const key = (c: CellRef) => `${c.rowId}:${c.columnId}`;

/** The run of each of these cells (the run that last queued it). */
export async function runsOf(tx: Tx, refs: readonly CellRef[]): Promise<Map<string, string>> {
  const rows = await tx.$queryRawUnsafe<{ row_id: string; column_id: string; run_id: string | null }[]>(
    `SELECT row_id, column_id, run_id FROM cells WHERE (row_id, column_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    refs.map((r) => r.rowId),
    refs.map((r) => r.columnId),
  );
  return new Map(rows.flatMap((r) => (r.run_id ? [[`${r.row_id}:${r.column_id}`, r.run_id] as const] : [])));
}

/**
 * Locks the runs of the batch and returns the keys of the cells their budgets cannot cover. Call
 * it before the cells are stored; then `spend` with what was stored.
 */
export async function budgetSplit(tx: Tx, batch: readonly Charged[]) {
  const runOf = await runsOf(tx, batch);
  const runs = new Map((await lockRuns(tx, [...new Set(runOf.values())])).map((r) => [r.id, { ...r, left: r.maxCredits === null ? Infinity : r.maxCredits - r.creditsSpent }]));
  const over = new Set<string>();
  for (const c of batch) {
    const run = runs.get(runOf.get(key(c)) ?? "");
    if (!run) continue;
    if (c.amount > run.left) over.add(key(c));
    else run.left -= c.amount;
  }
  return { runOf, runs, over };
}

/**
 * Records what the stored cells cost against their runs, hands back the answers the budget did
 * not cover (uncharged, pending again), and pauses each capped run that cannot pay for one more
 * cell.
 */
export async function spend(w: Work, owner: string, split: Awaited<ReturnType<typeof budgetSplit>>, stored: readonly Charged[], refused: readonly (CellRef & { generation: number })[]) {
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
    if (run.maxCredits === null || run.status !== "running" || run.cellCost <= 0) continue;
    if (run.left < run.cellCost) await transitionRun(w, run, "budget");
  }
}
