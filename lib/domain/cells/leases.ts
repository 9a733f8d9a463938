import type { Tx } from "../../db/database.ts";
import { runRoomSql } from "./budget.ts";
import { fromStatusSql, toStatusSql } from "./transitions.ts";
import type { CellRef, ClaimedCell } from "./types.ts";
import { prepared } from "../../db/prepared.ts";

// Leases: how workers take cells and give them back. A claimed cell is running under its
// worker's lease; a worker that dies leaves its cells to be returned once the lease runs out.

/** SQL: a lease that runs out `param` milliseconds from now. */
export const leaseFor = (param: string) => `now() + make_interval(secs => ${param}::double precision / 1000)`;

/**
 * SQL: the relation `d` (column_id, status) of cell `c`'s input cells in its row, found by primary
 * key. OFFSET 0 keeps a status test on `d` out of the lookup: given one, the planner may intersect
 * the key with the status index, which lists every cell of that status in every base (1 ms a
 * lookup at 50,000 open cells). It does so when the table has no statistics, as in the embedded
 * database until a tenth of the table has changed (its maintenance analyzes no sooner). Every status
 * test of input cells goes through here.
 */
export const inputCellsSql = (c: string, inputIds: string) =>
  `(SELECT d.column_id, d.status FROM cells d WHERE d.row_id = ${c}.row_id AND d.column_id = ANY(${inputIds}) OFFSET 0) d`;

/** SQL: none of cell `c`'s AI input cells of its row is still pending or running (the DAG's rule). */
export const inputsSettledSql = (c: string, inputIds: string) => `NOT EXISTS (
  SELECT 1 FROM ${inputCellsSql(c, inputIds)} WHERE d.status IN ('pending', 'running'))`;

type ClaimRow = { row_id: string; column_id: string; sheet_id: string; generation: number; attempts: number };
const toClaimed = (r: ClaimRow): ClaimedCell => ({
  rowId: r.row_id,
  columnId: r.column_id,
  sheetId: r.sheet_id,
  generation: r.generation,
  attempts: r.attempts,
});
/** SQL: the SET list of a claim by the owner in parameter `owner`, leased for `leaseMs`. */
const claimSet = (owner: string, leaseMs: string) =>
  `status = ${toStatusSql("claim")}, lease_owner = ${owner}, lease_until = ${leaseFor(leaseMs)}, started_at = now(), updated_at = now()`;

/**
 * SQL: `c`'s inputs are settled, tested per candidate. Its lookup reads the inputs from within the
 * FROM clause, so the planner cannot turn the test into an anti-join over every waiting cell (30x
 * slower at 10,000 pending cells).
 */
const READY = (c: string) => inputsSettledSql(c, dependencyIdsOf(c));

/** SQL: cell `c`'s column's input column ids, for inputCellsSql. */
export const inputIdsOf = (c: string) =>
  `(SELECT col.input_column_ids FROM columns col WHERE col.id = ${c}.column_id)::text[]`;

/**
 * SQL: what column `col` waits for: its inputs, the columns its run condition names (every
 * "column" of the stored tree; none when it has no condition) and the columns that write what it
 * reads, as graph.ts dependenciesOf.
 */
export const dependencyIdsSql = (col: string) =>
  `(${col}.input_column_ids || ${col}.writer_column_ids || ARRAY(SELECT jsonb_path_query(${col}.run_if, 'strict $.**.column') #>> '{}'))`;

/** SQL: cell `c`'s column's dependency ids (dependencyIdsSql), for the readiness test. */
const dependencyIdsOf = (c: string) =>
  `(SELECT ${dependencyIdsSql("col")} FROM columns col WHERE col.id = ${c}.column_id)::text[]`;

/** SQL: how many more cells run `r` may start: its budget left, less the cells it has running. */
const ROOM = (r: string, cap: string) =>
  runRoomSql(r, cap, `(SELECT count(*) FROM cells x WHERE x.run_id = ${r}.id AND x.status = 'running')`);

/**
 * SQL: cell `c` may be claimed as far as its run is concerned: the run is running (not paused,
 * cancelled or done) and its budget covers one more cell beside those it has running.
 */
export const runOpenSql = (c: string) =>
  `(${c}.run_id IS NULL OR EXISTS (SELECT 1 FROM runs r WHERE r.id = ${c}.run_id AND r.status = 'running'))`;

/**
 * SQL: as runOpenSql, and the run's budget also covers `nth` more cells beside those it has
 * running: a claim numbers each run's candidates, so that one statement does not take more of a
 * run's cells than its budget pays for.
 */
export const runnableSql = (c: string, nth = "1") => `(${c}.run_id IS NULL OR EXISTS (
  SELECT 1 FROM runs r WHERE r.id = ${c}.run_id AND r.status = 'running' AND ${ROOM("r", nth)} >= ${nth}))`;

/**
 * Claims up to `limit` pending cells that are due and ready (the embedded queue), fairly: runs
 * take turns round-robin within their workspace, and workspaces take turns above them, so a
 * small run is never stuck behind a large one. Each running run offers at most `limit` cells
 * (fewer when its budget is nearly spent), walking its pending cells' partial index, so a claim
 * stays cheap however many cells wait. Cells queued before runs existed form one more group.
 */
export async function claimReadyCells(tx: Tx, owner: string, limit: number, leaseMs: number): Promise<ClaimedCell[]> {
  const rows = await tx.$queryRawUnsafe<ClaimRow[]>(
    `WITH active AS (
       SELECT r.id, r.workspace_id, r.created_at, ${ROOM("r", "$1::int")} AS room FROM runs r WHERE r.status = 'running'),
     cand AS (
       SELECT a.id AS run_id, a.workspace_id, a.created_at, x.row_id, x.column_id, x.k
       FROM active a CROSS JOIN LATERAL (
         SELECT c.row_id, c.column_id, row_number() OVER (ORDER BY c.available_at) AS k FROM (
           SELECT c.row_id, c.column_id, c.available_at FROM cells c
           WHERE c.run_id = a.id AND c.status = 'pending' AND c.available_at <= now() AND ${READY("c")}
           ORDER BY c.available_at LIMIT a.room) c) x
       UNION ALL
       SELECT NULL, NULL, NULL, u.row_id, u.column_id, row_number() OVER (ORDER BY u.available_at) FROM (
         SELECT c.row_id, c.column_id, c.available_at FROM cells c
         WHERE c.run_id IS NULL AND c.status = 'pending' AND c.available_at <= now() AND ${READY("c")}
         ORDER BY c.available_at LIMIT $1) u),
     groups AS (
       SELECT run_id, row_number() OVER (PARTITION BY workspace_id ORDER BY created_at, run_id) AS j, count(*) OVER (PARTITION BY workspace_id) AS n
       FROM (SELECT DISTINCT run_id, workspace_id, created_at FROM cand) d),
     ranked AS (
       SELECT c.row_id, c.column_id, (c.k - 1) * g.n + g.j AS turn, dense_rank() OVER (ORDER BY c.workspace_id) AS ws
       FROM cand c JOIN groups g ON g.run_id IS NOT DISTINCT FROM c.run_id),
     -- Each candidate in turn order, its cell locked by key until $1 are taken. A plain join let the
     -- planner, which cannot know that there are at most $1 candidates a run, hash every pending
     -- cell: 89 ms a claim at 100,000 pending against 8 ms at 100 (bench:claim).
     pick AS (
       SELECT l.row_id, l.column_id
       FROM (SELECT row_id, column_id, turn, ws FROM ranked ORDER BY turn, ws) r
       CROSS JOIN LATERAL (
         SELECT c.row_id, c.column_id FROM cells c
         WHERE c.row_id = r.row_id AND c.column_id = r.column_id AND ${fromStatusSql("claim", "c")}
         FOR UPDATE SKIP LOCKED) l
       ORDER BY r.turn, r.ws
       LIMIT $1)
     UPDATE cells SET ${claimSet("$2", "$3")}
     FROM pick WHERE cells.row_id = pick.row_id AND cells.column_id = pick.column_id
     RETURNING cells.row_id, cells.column_id, cells.sheet_id, cells.generation, cells.attempts`,
    limit,
    owner,
    leaseMs,
  );
  return rows.map(toClaimed);
}

export type ListedCellState = {
  row_id: string;
  column_id: string;
  run_id: string | null;
  status: string;
  due: boolean;
  inputs_done: boolean;
  /** Its run is running (not paused, cancelled or done): a job for it is worth keeping. */
  run_open: boolean;
  /** Its run has a credit cap: claiming it needs the run's claim lock (see claimListedCells). */
  capped: boolean;
  available_at: Date;
  generation: number;
  attempts: number;
  sheet_id: string | null;
  claimed: boolean;
};

/** SQL: cell `c`'s run has a credit cap, so its claims must count the run's running cells. */
const cappedSql = (c: string) => `(${c}.run_id IS NOT NULL AND EXISTS (
  SELECT 1 FROM runs r WHERE r.id = ${c}.run_id AND r.max_credits IS NOT NULL AND r.cell_cost > 0))`;

/**
 * Claims the listed cells (a queue engine's jobs name them) that are pending, due and ready.
 * Returns every listed cell's state, claimed or not, so the caller can requeue the rest. `state`
 * is read in the statement's snapshot; the UPDATE re-checks the status on the newest row version,
 * so a cell claimed or finished meanwhile is left alone.
 *
 * A capped run's room counts its running cells in this statement's snapshot, which cannot see a
 * concurrent claim's cells: two claims side by side would each see room for the run's last cell.
 * So cells of capped runs are claimed only with `cappedLocked`, by a caller that holds those runs'
 * claim locks (taken in an earlier statement, so that this one's snapshot follows the last claim's
 * commit); without it they are left pending and reported `capped`.
 */
export async function claimListedCells(
  tx: Tx,
  refs: readonly CellRef[],
  owner: string,
  leaseMs: number,
  cappedLocked: boolean,
): Promise<ListedCellState[]> {
  return tx.$queryRawUnsafe<ListedCellState[]>(
    CLAIM_LISTED_SQL,
    owner,
    leaseMs,
    refs.map((r) => r.rowId),
    refs.map((r) => r.columnId),
    cappedLocked,
  );
}

const CLAIM_LISTED_SQL = prepared(`WITH want AS (
       SELECT * FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS t(row_id, column_id, ord)),
     state AS (
       SELECT w.row_id, w.column_id, w.ord, c.run_id, c.status, c.available_at, c.available_at <= now() AS due, c.generation,
         c.attempts, ${inputsSettledSql("c", dependencyIdsSql("col"))} AS inputs_done, ${runOpenSql("c")} AS run_open,
         ${cappedSql("c")} AS capped
       FROM want w
       JOIN cells c ON c.row_id = w.row_id AND c.column_id = w.column_id
       JOIN columns col ON col.id = c.column_id),
     pick AS (
       SELECT c.row_id, c.column_id FROM cells c
       JOIN (
         SELECT d.*, row_number() OVER (PARTITION BY d.run_id ORDER BY d.ord) AS nth
         FROM (SELECT DISTINCT ON (row_id, column_id) * FROM state ORDER BY row_id, column_id, ord) d
         WHERE d.status = 'pending' AND d.due AND d.inputs_done AND ($5::boolean OR NOT d.capped)) s
         ON s.row_id = c.row_id AND s.column_id = c.column_id
       WHERE ${runnableSql("c", "s.nth")}
       ORDER BY s.ord
       FOR UPDATE OF c SKIP LOCKED),
     claimed AS (
       UPDATE cells SET ${claimSet("$1", "$2")}
       FROM pick WHERE cells.row_id = pick.row_id AND cells.column_id = pick.column_id AND ${fromStatusSql("claim")}
       RETURNING cells.row_id, cells.column_id, cells.sheet_id, cells.generation, cells.attempts)
     SELECT s.row_id, s.column_id, s.run_id, s.status, s.due, s.inputs_done, s.run_open, s.capped, s.available_at,
       COALESCE(cl.generation, s.generation) AS generation, COALESCE(cl.attempts, s.attempts) AS attempts,
       cl.sheet_id, cl.row_id IS NOT NULL AS claimed
     FROM state s LEFT JOIN claimed cl ON cl.row_id = s.row_id AND cl.column_id = s.column_id
     ORDER BY s.ord`);

/**
 * Extends the lease of the owner's running cells. A cell locked by another transaction is skipped:
 * that transaction is storing or ending the cell (its lease ends with it), and waiting on it made
 * this statement, which locks the owner's cells in whatever order it finds them, cross a
 * completion batch that locks them in its own (a deadlock, 40P01). A skipped cell is renewed next time.
 */
export async function renewLeases(tx: Tx, owner: string, leaseMs: number): Promise<void> {
  await tx.$executeRawUnsafe(
    prepared(`UPDATE cells SET lease_until = ${leaseFor("$2")}
     WHERE (row_id, column_id) IN (
       SELECT row_id, column_id FROM cells WHERE lease_owner = $1 AND status = 'running' FOR UPDATE SKIP LOCKED)`),
    owner,
    leaseMs,
  );
}

/** Hands claimed-but-unfinished cells back to the queue (graceful shutdown); returns those handed back. */
export async function releaseCells(tx: Tx, owner: string, cells: readonly CellRef[]): Promise<CellRef[]> {
  if (cells.length === 0) return [];
  const released = await tx.$queryRawUnsafe<{ row_id: string; column_id: string }[]>(
    `UPDATE cells SET status = ${toStatusSql("release")}, lease_owner = NULL, lease_until = NULL, available_at = now(), updated_at = now()
     WHERE lease_owner = $1 AND ${fromStatusSql("release")} AND (row_id, column_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))
     RETURNING row_id, column_id`,
    owner,
    cells.map((c) => c.rowId),
    cells.map((c) => c.columnId),
  );
  return released.map((r) => ({ rowId: r.row_id, columnId: r.column_id }));
}

/**
 * Returns cells whose worker died: with `expiredOnly`, those whose lease ran out; without it,
 * every running cell (a process that owns the whole database, at start). Each return counts an
 * attempt, and a cell that has kept killing its worker `maxAttempts` times ends in error instead
 * of looping forever. At most `limit` of each per call.
 */
export async function returnLeases(
  tx: Tx,
  opts: { expiredOnly: boolean; maxAttempts: number; limit?: number },
): Promise<number> {
  const dead = `status = 'running'${opts.expiredOnly ? " AND lease_until < now()" : ""}`;
  const pick = `(row_id, column_id) IN (SELECT row_id, column_id FROM cells WHERE ${dead} LIMIT $1 FOR UPDATE SKIP LOCKED)`;
  const limit = opts.limit ?? 1_000_000;
  const abandoned = await tx.$executeRawUnsafe(
    `UPDATE cells SET status = ${toStatusSql("abandon")}, error_code = 'internal_error', attempts = attempts + 1,
       error_message = 'The worker running this cell stopped responding too many times.',
       lease_owner = NULL, lease_until = NULL, finished_at = now(), updated_at = now()
     WHERE ${pick} AND ${fromStatusSql("abandon")} AND attempts + 1 >= $2`,
    limit,
    opts.maxAttempts,
  );
  const returned = await tx.$executeRawUnsafe(
    `UPDATE cells SET status = ${toStatusSql("release")}, attempts = attempts + 1, lease_owner = NULL, lease_until = NULL,
       available_at = now(), updated_at = now()
     WHERE ${pick} AND ${fromStatusSql("release")}`,
    limit,
  );
  return abandoned + returned;
}
