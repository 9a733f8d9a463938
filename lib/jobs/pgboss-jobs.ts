import { PgBoss, fromPrisma, type JobInsert } from "pg-boss";
import type { Tx } from "../db/database.ts";
import { dependencyIdsSql, inputsSettledSql, runOpenSql } from "../domain/cells/index.ts";
import { prepared } from "../db/prepared.ts";

// Cells as pg-boss jobs (scale-out). A job only says "this cell may be ready"; the cell row stays
// the source of truth, and a worker must claim the row (status running, its lease) before it runs
// anything, so a duplicate or stale job is harmless. Jobs are written in the transaction that
// makes cells pending (through pg-boss's Prisma adapter), and deduplicated by a singleton key per
// cell generation and attempt on an "exclusive" queue: at most one queued or active job per key.

export const CELL_QUEUE = "cellwright-cells";
export const BOSS_SCHEMA = "pgboss";

export interface CellKey {
  rowId: string;
  columnId: string;
}

export interface ReadyCell extends CellKey {
  generation: number;
  attempts: number;
  availableAt: Date;
  /** Its place among its run's ready cells (1 first); jobs of equal turn are fetched oldest first. */
  turn?: number;
}

export interface CellJobData {
  r: string;
  c: string;
}

export const jobKey = (c: { rowId: string; columnId: string; generation: number; attempts: number }) =>
  `${c.rowId}/${c.columnId}/${c.generation}/${c.attempts}`;

/**
 * The cells of `where` that are pending with every AI input (and run-condition column) terminal (the DAG's rule), in a run
 * that is running. `turn` numbers each run's cells: jobs are fetched by priority, and a cell's
 * priority is minus its turn, so runs take turns instead of queueing behind each other.
 */
const READY_SQL = (where: string) => `
  SELECT c.row_id, c.column_id, c.generation, c.attempts, c.available_at,
    (row_number() OVER (PARTITION BY c.run_id ORDER BY c.available_at, c.row_id))::int AS turn
  FROM cells c JOIN columns col ON col.id = c.column_id
  WHERE ${where} AND c.status = 'pending'
    AND ${inputsSettledSql("c", dependencyIdsSql("col"))} AND ${runOpenSql("c")}`;

const READY_ROWS_SQL = prepared(READY_SQL(`c.row_id = ANY($1::text[])`));

type ReadyRow = {
  row_id: string;
  column_id: string;
  generation: number;
  attempts: number;
  available_at: Date;
  turn?: number;
};
const toReady = (r: ReadyRow): ReadyCell => ({
  rowId: r.row_id,
  columnId: r.column_id,
  generation: r.generation,
  attempts: r.attempts,
  availableAt: new Date(r.available_at),
  turn: r.turn,
});

export interface CellJobs {
  boss: PgBoss;
  /** Writes jobs, in `tx`, for those of `refs` that are ready (the others follow their inputs). */
  enqueue(tx: Tx, refs: readonly CellKey[]): Promise<number>;
  /** Writes jobs, in `tx`, for the ready cells of these rows (after a cell of theirs finished). */
  enqueueRows(tx: Tx, rowIds: readonly string[]): Promise<number>;
  /** Writes jobs for cells already known ready (the reconciler, a claim handing a cell back). */
  insert(tx: Tx, cells: readonly ReadyCell[], notBefore?: Date): Promise<number>;
  reachable(): Promise<boolean>;
  stop(): Promise<void>;
}

const CHUNK = 5_000;

export async function startCellJobs(url: string, opts: { keepCompletedSeconds?: number } = {}): Promise<CellJobs> {
  const boss = new PgBoss({
    connectionString: url,
    schema: BOSS_SCHEMA,
    max: 3,
    schedule: false,
    application_name: "cellwright-queue",
  });
  boss.on("error", (e) => console.error("[cellwright] queue engine:", e.message));
  await boss.start();
  // Cell state, not pg-boss, decides retries: a job is never retried, and finished jobs are kept
  // only briefly (they carry nothing the cells table does not).
  const queueOptions = {
    policy: "exclusive",
    retryLimit: 0,
    deleteAfterSeconds: opts.keepCompletedSeconds ?? 3_600,
  } as const;
  if (!(await boss.getQueue(CELL_QUEUE))) {
    await boss.createQueue(CELL_QUEUE, queueOptions).catch(async (e) => {
      // Another process created it at the same moment.
      if (!(await boss.getQueue(CELL_QUEUE))) throw e;
    });
  }

  const insert = async (tx: Tx, cells: readonly ReadyCell[], notBefore?: Date) => {
    let n = 0;
    for (let i = 0; i < cells.length; i += CHUNK) {
      const jobs: JobInsert<CellJobData>[] = cells.slice(i, i + CHUNK).map((c) => {
        // available_at is the database's time, like pg-boss's own clock: a cell waiting for a
        // retry gets its job exactly when it is due.
        const startAfter = notBefore && notBefore > c.availableAt ? notBefore : c.availableAt;
        return {
          data: { r: c.rowId, c: c.columnId },
          singletonKey: jobKey(c),
          startAfter,
          priority: 1 - (c.turn ?? 1),
        };
      });
      await boss.insert(CELL_QUEUE, jobs, { db: fromPrisma(tx) });
      n += jobs.length;
    }
    return n;
  };

  return {
    boss,
    insert,
    async enqueue(tx, refs) {
      let n = 0;
      for (let i = 0; i < refs.length; i += CHUNK) {
        const part = refs.slice(i, i + CHUNK);
        const rows = await tx.$queryRawUnsafe<ReadyRow[]>(
          READY_SQL(`(c.row_id, c.column_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`),
          part.map((r) => r.rowId),
          part.map((r) => r.columnId),
        );
        n += await insert(tx, rows.map(toReady));
      }
      return n;
    },
    async enqueueRows(tx, rowIds) {
      if (rowIds.length === 0) return 0;
      const rows = await tx.$queryRawUnsafe<ReadyRow[]>(READY_ROWS_SQL, [...rowIds]);
      return insert(tx, rows.map(toReady));
    },
    async reachable() {
      try {
        return (await boss.getQueue(CELL_QUEUE)) !== null;
      } catch {
        return false;
      }
    },
    stop: () => boss.stop({ graceful: false, close: true, timeout: 5_000 }),
  };
}

/**
 * Ready pending cells with no live job (queued or active) under their current key: the
 * reconciler's catch-all for a process that died between a commit and its enqueue. The one
 * place that reads pg-boss's job table directly, read-only. Each cell's job is looked up by key
 * in pg-boss's index of live exclusive jobs (whose predicate the lookup repeats); OFFSET 0 keeps
 * the lookup from being turned into a join, which, without statistics on a table just filled,
 * compared every ready cell with every job (59 s at 25,000 of each).
 */
export async function orphanedReadyCells(tx: Tx, limit: number): Promise<ReadyCell[]> {
  const rows = await tx.$queryRawUnsafe<ReadyRow[]>(
    `${READY_SQL("true")}
       AND NOT EXISTS (
         SELECT 1 FROM ${BOSS_SCHEMA}.job j
         WHERE j.name = $1 AND j.policy = 'exclusive' AND j.state <= 'active'
           AND COALESCE(j.singleton_key, '') = c.row_id || '/' || c.column_id || '/' || c.generation || '/' || c.attempts OFFSET 0)
     ORDER BY c.available_at LIMIT $2`,
    CELL_QUEUE,
    limit,
  );
  return rows.map(toReady);
}
