import type { Tx } from "../db/database.ts";
import type { CellJob } from "./types.ts";

/**
 * Claims up to `limit` cells that are ready: pending and due, or running under an expired lease
 * (their process died). A cell is ready once no AI input cell of its row is still pending or running (a failed input fails it). Rows
 * are served in insertion order so that a table fills from the top.
 * A reclaimed cell counts an attempt, so a cell that keeps killing its worker cannot loop forever.
 */
export async function claimCells(tx: Tx, owner: string, limit: number, leaseMs: number): Promise<CellJob[]> {
  const rows = await tx.$queryRawUnsafe<{ row_id: string; column_id: string; sheet_id: string; generation: number; attempts: number }[]>(
    `WITH ready AS (
       SELECT c.row_id, c.column_id FROM cells c
       JOIN columns col ON col.id = c.column_id
       JOIN rows r ON r.id = c.row_id
       WHERE ((c.status = 'pending' AND c.available_at <= now()) OR (c.status = 'running' AND c.lease_until < now()))
         AND NOT EXISTS (
           SELECT 1 FROM cells d
           WHERE d.row_id = c.row_id AND d.column_id = ANY(col.input_column_ids) AND d.status IN ('pending', 'running'))
       ORDER BY c.available_at, r.seq
       LIMIT $1
       FOR UPDATE OF c SKIP LOCKED)
     UPDATE cells SET
       attempts = cells.attempts + CASE WHEN cells.status = 'running' THEN 1 ELSE 0 END,
       status = 'running', lease_owner = $2, lease_until = now() + make_interval(secs => $3::double precision / 1000),
       started_at = now(), updated_at = now()
     FROM ready WHERE cells.row_id = ready.row_id AND cells.column_id = ready.column_id
     RETURNING cells.row_id, cells.column_id, cells.sheet_id, cells.generation, cells.attempts`,
    limit,
    owner,
    leaseMs,
  );
  return rows.map((r) => ({ rowId: r.row_id, columnId: r.column_id, sheetId: r.sheet_id, generation: r.generation, attempts: r.attempts }));
}

export async function renewLeases(tx: Tx, owner: string, leaseMs: number): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE cells SET lease_until = now() + make_interval(secs => $2::double precision / 1000)
     WHERE lease_owner = $1 AND status = 'running'`,
    owner,
    leaseMs,
  );
}

/** Hands claimed-but-unfinished cells back to the queue (graceful shutdown). */
export async function releaseCells(tx: Tx, owner: string, jobs: readonly CellJob[]): Promise<void> {
  if (jobs.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE cells SET status = 'pending', lease_owner = NULL, lease_until = NULL, available_at = now()
     WHERE lease_owner = $1 AND status = 'running' AND (row_id, column_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
    owner,
    jobs.map((j) => j.rowId),
    jobs.map((j) => j.columnId),
  );
}
