import { fromPrisma } from "pg-boss";
import type { Prisma, Tx } from "../db/database.ts";
import type { CellJob } from "./types.ts";
import { CELL_QUEUE, type CellJobData, type CellJobs, type ReadyCell } from "./pgboss-jobs.ts";

// One claim is one transaction: fetch jobs from pg-boss, claim their cells (status running, this
// worker's lease), and complete the jobs. Either all of it commits or none does, so a worker that
// dies mid-claim leaves the jobs queued. From then on the cell's lease, not the job, guards the
// run: the reconciler hands back cells whose lease ran out.

const CONCURRENCY_LOCK = 727_275;

type StateRow = {
  row_id: string;
  column_id: string;
  status: string;
  due: boolean;
  inputs_done: boolean;
  available_at: Date;
  generation: number;
  attempts: number;
  sheet_id: string;
  claimed: boolean;
};

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
 * worker: claims take a transaction-scoped advisory lock, so the count and the claim are atomic.
 */
export async function claimJobs(
  prisma: Prisma,
  jobs: CellJobs,
  owner: string,
  want: number,
  leaseMs: number,
  globalCap: number,
): Promise<ClaimResult> {
  return prisma.$transaction(
    async (tx) => {
      const db = fromPrisma(tx);
      // Under the lock, count the cells running anywhere and take no more jobs than the cap
      // leaves room for, so jobs are not fetched only to be put back.
      // A claim never waits on a lock for long: it fails, and the next poll tries again.
      await tx.$executeRawUnsafe(`SELECT set_config('lock_timeout', '15s', true), pg_advisory_xact_lock(${CONCURRENCY_LOCK})`);
      const [{ running }] = await tx.$queryRawUnsafe<{ running: number }[]>(
        `SELECT count(*)::int AS running FROM cells WHERE status = 'running' AND lease_until > now()`,
      );
      const room = Math.min(want, globalCap - running);
      if (room <= 0) return { claimed: [], fetched: 0, requested: 0, capped: 1 };
      const fetched = await jobs.boss.fetch<CellJobData>(CELL_QUEUE, { batchSize: room, db });
      if (fetched.length === 0) return { claimed: [], fetched: 0, requested: room, capped: room < want ? 1 : 0 };
      const rows = await tx.$queryRawUnsafe<StateRow[]>(
        CLAIM_SQL,
        fetched.map((j) => j.data.r),
        fetched.map((j) => j.data.c),
        owner,
        leaseMs,
        globalCap,
      );
      await jobs.boss.complete(CELL_QUEUE, fetched.map((j) => j.id), null, { db });

      // Jobs whose cell was not claimed: a cell waiting for its inputs is enqueued again when they
      // finish; one not yet due, or ready but capped or locked, gets a new job for later.
      const later: ReadyCell[] = [];
      let capped = 0;
      const seen = new Set(rows.filter((r) => r.claimed).map((r) => `${r.row_id}/${r.column_id}`));
      for (const r of rows) {
        const key = `${r.row_id}/${r.column_id}`;
        if (seen.has(key) || r.status !== "pending" || !r.inputs_done) continue;
        seen.add(key);
        if (r.due) capped++;
        later.push({ rowId: r.row_id, columnId: r.column_id, generation: r.generation, attempts: r.attempts, availableAt: new Date(r.available_at) });
      }
      if (later.length > 0) await jobs.insert(tx, later, new Date(Date.now() + 500));
      const claimed: CellJob[] = [];
      const taken = new Set<string>();
      for (const r of rows) {
        const key = `${r.row_id}/${r.column_id}`;
        if (!r.claimed || taken.has(key)) continue;
        taken.add(key);
        claimed.push({ rowId: r.row_id, columnId: r.column_id, sheetId: r.sheet_id, generation: r.generation, attempts: r.attempts });
      }
      return { claimed, fetched: fetched.length, requested: room, capped: capped + (room < want ? 1 : 0) };
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
}

// `state` is read before the claim, in the statement's snapshot (taken after the advisory lock,
// so it sees every earlier claim). The UPDATE re-checks `status = 'pending'` on the newest row
// version, so a cell claimed or finished meanwhile is left alone.
const CLAIM_SQL = `
  WITH want AS (
    SELECT * FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(row_id, column_id, ord)),
  state AS (
    SELECT w.row_id, w.column_id, w.ord, c.status, c.available_at, c.available_at <= now() AS due, c.generation, c.attempts,
      NOT EXISTS (
        SELECT 1 FROM cells d
        WHERE d.row_id = c.row_id AND d.column_id = ANY(col.input_column_ids) AND d.status IN ('pending', 'running')) AS inputs_done
    FROM want w
    JOIN cells c ON c.row_id = w.row_id AND c.column_id = w.column_id
    JOIN columns col ON col.id = c.column_id),
  pick AS (
    SELECT c.row_id, c.column_id FROM cells c
    JOIN (SELECT DISTINCT ON (row_id, column_id) * FROM state ORDER BY row_id, column_id, ord) s
      ON s.row_id = c.row_id AND s.column_id = c.column_id
    WHERE s.status = 'pending' AND s.due AND s.inputs_done
    ORDER BY s.ord
    LIMIT GREATEST(0, $5::int - (SELECT count(*) FROM cells WHERE status = 'running' AND lease_until > now()))
    FOR UPDATE OF c SKIP LOCKED),
  claimed AS (
    UPDATE cells SET status = 'running', lease_owner = $3,
      lease_until = now() + make_interval(secs => $4::double precision / 1000), started_at = now(), updated_at = now()
    FROM pick WHERE cells.row_id = pick.row_id AND cells.column_id = pick.column_id AND cells.status = 'pending'
    RETURNING cells.row_id, cells.column_id, cells.sheet_id, cells.generation, cells.attempts)
  SELECT s.row_id, s.column_id, s.status, s.due, s.inputs_done, s.available_at,
    COALESCE(cl.generation, s.generation) AS generation, COALESCE(cl.attempts, s.attempts) AS attempts,
    cl.sheet_id, cl.row_id IS NOT NULL AS claimed
  FROM state s LEFT JOIN claimed cl ON cl.row_id = s.row_id AND cl.column_id = s.column_id
  ORDER BY s.ord`;

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
    const released = await tx.$queryRawUnsafe<{ row_id: string; column_id: string }[]>(
      `UPDATE cells SET status = 'pending', lease_owner = NULL, lease_until = NULL, available_at = now(), updated_at = now()
       WHERE lease_owner = $1 AND status = 'running' AND (row_id, column_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))
       RETURNING row_id, column_id`,
      owner,
      cells.map((c) => c.rowId),
      cells.map((c) => c.columnId),
    );
    await jobs.enqueue(tx, released.map((r) => ({ rowId: r.row_id, columnId: r.column_id })));
    return released.length;
  });
}
