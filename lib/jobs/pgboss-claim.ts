import { fromPrisma } from "pg-boss";
import type { Prisma } from "../db/database.ts";
import { cellKey, claimListedCells, countLiveLeases, releaseCells, type CellRef, type ListedCellState } from "../domain/cells/index.ts";
import type { CellJob } from "./types.ts";
import { CELL_QUEUE, type CellJobData, type CellJobs, type ReadyCell } from "./pgboss-jobs.ts";

// One claim is one transaction: fetch jobs from pg-boss, claim their cells (status running, this
// worker's lease), and complete the jobs. Either all of it commits or none does, so a worker that
// dies mid-claim leaves the jobs queued. From then on the cell's lease, not the job, guards the
// run: the reconciler hands back cells whose lease ran out.

const CONCURRENCY_LOCK = 727_275;

export interface ClaimResult {
  claimed: CellJob[];
  fetched: number;
  /** How many jobs were asked for (fewer than wanted when the global cap is near). */
  requested: number;
  /** Non-zero when the global concurrency cap (or a concurrent claim) held this claim back. */
  capped: number;
}

/**
 * Claims up to `want` cells. `globalCap` bounds the cells running under a live lease across every
 * worker, less those in `answered` (see countLiveLeases): claims take a transaction-scoped
 * advisory lock, so the count and the claim are atomic.
 */
export async function claimJobs(
  prisma: Prisma,
  jobs: CellJobs,
  owner: string,
  want: number,
  leaseMs: number,
  globalCap: number,
  answered: readonly CellRef[] = [],
): Promise<ClaimResult> {
  return prisma.$transaction(
    async (tx) => {
      const db = fromPrisma(tx);
      // Under the lock, count the cells running anywhere and take no more jobs than the cap
      // leaves room for, so jobs are not fetched only to be put back.
      // A claim never waits on a lock for long: it fails, and the next poll tries again.
      await tx.$executeRawUnsafe(`SELECT set_config('lock_timeout', '15s', true), pg_advisory_xact_lock(${CONCURRENCY_LOCK})`);
      const running = await countLiveLeases(tx, answered);
      const room = Math.min(want, globalCap - running);
      if (room <= 0) return { claimed: [], fetched: 0, requested: 0, capped: 1 };
      const fetched = await jobs.boss.fetch<CellJobData>(CELL_QUEUE, { batchSize: room, db });
      if (fetched.length === 0) return { claimed: [], fetched: 0, requested: room, capped: room < want ? 1 : 0 };
      const rows = await claimListedCells(tx, fetched.map((j) => ({ rowId: j.data.r, columnId: j.data.c })), owner, leaseMs, globalCap, answered);
      await jobs.boss.complete(CELL_QUEUE, fetched.map((j) => j.id), null, { db });

      // Jobs whose cell was not claimed: a cell waiting for its inputs is enqueued again when they
      // finish; one not yet due, or ready but capped or locked, gets a new job for later.
      const later: ReadyCell[] = [];
      let capped = 0;
      const keyOf = (r: ListedCellState) => cellKey({ rowId: r.row_id, columnId: r.column_id });
      const seen = new Set(rows.filter((r) => r.claimed).map(keyOf));
      for (const r of rows) {
        const key = keyOf(r);
        // A paused or cancelled run's cells wait without a job: resuming queues them again.
        if (seen.has(key) || r.status !== "pending" || !r.inputs_done || !r.run_open) continue;
        seen.add(key);
        if (r.due) capped++;
        later.push({ rowId: r.row_id, columnId: r.column_id, generation: r.generation, attempts: r.attempts, availableAt: new Date(r.available_at) });
      }
      if (later.length > 0) await jobs.insert(tx, later, new Date(Date.now() + 500));
      const claimed: CellJob[] = [];
      const taken = new Set<string>();
      for (const r of rows) {
        const key = keyOf(r);
        if (!r.claimed || taken.has(key)) continue;
        taken.add(key);
        claimed.push({ rowId: r.row_id, columnId: r.column_id, sheetId: r.sheet_id!, generation: r.generation, attempts: r.attempts });
      }
      return { claimed, fetched: fetched.length, requested: room, capped: capped + (room < want ? 1 : 0) };
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
}

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
