import { fromPrisma } from "pg-boss";
import type { Prisma, Tx } from "../db/database.ts";
import { cellKey, claimListedCells, releaseCells, type ListedCellState } from "../domain/cells/index.ts";
import type { CellJob } from "./types.ts";
import { CELL_QUEUE, type CellJobData, type CellJobs, type ReadyCell } from "./pgboss-jobs.ts";

// One claim is one transaction: fetch jobs from pg-boss, claim their cells (status running, this
// worker's lease), and complete the jobs. Either all of it commits or none does, so a worker that
// dies mid-claim leaves the jobs queued. From then on the cell's lease, not the job, guards the
// attempt: the reconciler hands back cells whose lease ran out.

export interface ClaimResult {
  claimed: CellJob[];
  fetched: number;
  /** Jobs whose cell was due but not claimed (its run's budget, or locked by another claim): put off. */
  deferred: number;
}

const CLAIM_LOCK = 727_275;

/**
 * Takes the claim locks of these capped runs (advisory, per run, until commit), in one order so
 * two claims never wait on each other in a cycle. A claim never waits on them for long: it fails,
 * and the next poll tries again.
 */
async function lockRunClaims(tx: Tx, runIds: readonly string[]): Promise<void> {
  await tx.$executeRawUnsafe(
    `SELECT set_config('lock_timeout', '15s', true), count(pg_advisory_xact_lock(${CLAIM_LOCK}, k))
     FROM (SELECT DISTINCT hashtext(id) AS k FROM unnest($1::text[]) AS t(id) ORDER BY k) s`,
    [...new Set(runIds)],
  );
}

/**
 * Claims up to `want` cells. The model calls they make are bounded by call permits, not here.
 * Claims run side by side; only claims of cells in runs with a credit cap take turns, per run: a
 * capped run's room counts the cells it has running, and two claims side by side would each see
 * room for its last cell. Those cells are left by the first claim statement and claimed by a
 * second one under their runs' locks, the one statement the locks are held for (with the deferred
 * jobs and the commit).
 */
export async function claimJobs(
  prisma: Prisma,
  jobs: CellJobs,
  owner: string,
  want: number,
  leaseMs: number,
): Promise<ClaimResult> {
  return prisma.$transaction(
    async (tx) => {
      const db = fromPrisma(tx);
      const fetched = await jobs.boss.fetch<CellJobData>(CELL_QUEUE, { batchSize: want, db });
      if (fetched.length === 0) return { claimed: [], fetched: 0, deferred: 0 };
      let rows = await claimListedCells(
        tx,
        fetched.map((j) => ({ rowId: j.data.r, columnId: j.data.c })),
        owner,
        leaseMs,
        false,
      );
      await jobs.boss.complete(
        CELL_QUEUE,
        fetched.map((j) => j.id),
        null,
        { db },
      );
      const keyOf = (r: ListedCellState) => cellKey({ rowId: r.row_id, columnId: r.column_id });
      const capped = rows.filter((r) => r.capped && !r.claimed && claimable(r));
      if (capped.length > 0) {
        await lockRunClaims(
          tx,
          capped.map((r) => r.run_id!),
        );
        const again = await claimListedCells(
          tx,
          capped.map((r) => ({ rowId: r.row_id, columnId: r.column_id })),
          owner,
          leaseMs,
          true,
        );
        const byKey = new Map(again.map((r) => [keyOf(r), r]));
        rows = rows.map((r) => byKey.get(keyOf(r)) ?? r);
      }

      // Jobs whose cell was not claimed: a cell waiting for its inputs is enqueued again when they
      // finish; one not yet due, or ready but over its run's budget or locked, gets a new job for later.
      const later: ReadyCell[] = [];
      let deferred = 0;
      const seen = new Set(rows.filter((r) => r.claimed).map(keyOf));
      for (const r of rows) {
        const key = keyOf(r);
        // A paused or cancelled run's cells wait without a job: resuming queues them again.
        if (seen.has(key) || r.status !== "pending" || !r.inputs_done || !r.run_open) continue;
        seen.add(key);
        if (r.due) deferred++;
        later.push({
          rowId: r.row_id,
          columnId: r.column_id,
          generation: r.generation,
          attempts: r.attempts,
          availableAt: new Date(r.available_at),
        });
      }
      if (later.length > 0) await jobs.insert(tx, later, new Date(Date.now() + 500));
      const claimed: CellJob[] = [];
      const taken = new Set<string>();
      for (const r of rows) {
        const key = keyOf(r);
        if (!r.claimed || taken.has(key)) continue;
        taken.add(key);
        claimed.push({
          rowId: r.row_id,
          columnId: r.column_id,
          sheetId: r.sheet_id!,
          generation: r.generation,
          attempts: r.attempts,
        });
      }
      return { claimed, fetched: fetched.length, deferred };
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
}

/** A listed cell the claim would have taken but for its run's budget or another claim's lock. */
const claimable = (r: ListedCellState) => r.status === "pending" && r.due && r.inputs_done && r.run_open;

/**
 * Hands claimed-but-unfinished cells back (graceful shutdown) and, in the same transaction,
 * queues them again so another worker takes them at once.
 */
export async function releaseToQueue(
  prisma: Prisma,
  jobs: CellJobs,
  owner: string,
  cells: readonly CellJob[],
): Promise<number> {
  if (cells.length === 0) return 0;
  return prisma.$transaction(async (tx) => {
    const released = await releaseCells(tx, owner, cells);
    await jobs.enqueue(tx, released);
    return released.length;
  });
}
