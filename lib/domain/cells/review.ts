import type { Tx } from "../../db/database.ts";
import { fromStatusSql, toStatusSql } from "./transitions.ts";
import type { CellRef } from "./types.ts";

// Review: a reviewer accepts a cell's value or corrects it. Either way the cell is verified: it is
// never regenerated unless a run forces it, and it may serve as a worked example for its column.
// (A re-run asked in review is queueCells, which clears `verified`.)

/** What a cell looked like, for the review history. */
export interface ReviewedCellState {
  rowId: string;
  columnId: string;
  status: string | null;
  verified: boolean;
  stale: boolean;
  metadata: unknown;
}

/** The current state of these cells (no row for an idle cell). */
export async function readReviewState(tx: Tx, refs: readonly CellRef[]): Promise<ReviewedCellState[]> {
  if (refs.length === 0) return [];
  const rows = await tx.$queryRawUnsafe<
    { row_id: string; column_id: string; status: string; verified: boolean; stale: boolean; metadata: unknown }[]
  >(
    `SELECT c.row_id, c.column_id, c.status, c.verified, c.stale, c.metadata
     FROM unnest($1::text[], $2::text[]) AS t(r, c) JOIN cells c ON c.row_id = t.r AND c.column_id = t.c`,
    refs.map((r) => r.rowId),
    refs.map((r) => r.columnId),
  );
  return rows.map((r) => ({
    rowId: r.row_id,
    columnId: r.column_id,
    status: r.status,
    verified: r.verified,
    stale: r.stale,
    metadata: r.metadata,
  }));
}

/** Accepts done cells as they are. Returns the cells accepted. */
export async function acceptCells(tx: Tx, refs: readonly CellRef[]): Promise<CellRef[]> {
  if (refs.length === 0) return [];
  const rows = await tx.$queryRawUnsafe<{ row_id: string; column_id: string }[]>(
    `UPDATE cells SET status = ${toStatusSql("accept")}, verified = true, stale = false, reviewed_at = now(), updated_at = now()
     FROM unnest($1::text[], $2::text[]) AS t(r, c)
     WHERE cells.row_id = t.r AND cells.column_id = t.c AND ${fromStatusSql("accept")}
     RETURNING cells.row_id, cells.column_id`,
    refs.map((r) => r.rowId),
    refs.map((r) => r.columnId),
  );
  return rows.map((r) => ({ rowId: r.row_id, columnId: r.column_id }));
}

/**
 * Stores reviewers' corrections as done and verified. `aiValue` is what the model had answered
 * (kept in metadata.aiValue, and never overwritten by a later correction); a newer generation
 * drops any attempt still in flight.
 */
export async function correctCells(
  tx: Tx,
  sheetId: string,
  edits: readonly (CellRef & { aiValue: string | null })[],
): Promise<void> {
  if (edits.length === 0) return;
  const blank = JSON.stringify({ sources: null, additionalDetails: null, confidenceScore: null });
  await tx.$executeRawUnsafe(
    `INSERT INTO cells (row_id, column_id, sheet_id, status, metadata, verified, reviewed_at, finished_at)
     SELECT r, c, $3, ${toStatusSql("correct")}, $4::jsonb || CASE WHEN a IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('aiValue', a) END, true, now(), now()
     FROM unnest($1::text[], $2::text[], $5::text[]) AS t(r, c, a)
     ON CONFLICT (row_id, column_id) DO UPDATE SET status = ${toStatusSql("correct")},
       metadata = COALESCE(cells.metadata, $4::jsonb) || CASE WHEN cells.metadata ? 'aiValue' OR excluded.metadata->>'aiValue' IS NULL THEN '{}'::jsonb
         ELSE jsonb_build_object('aiValue', excluded.metadata->>'aiValue') END,
       verified = true, reviewed_at = now(), finished_at = now(), stale = false, generation = cells.generation + 1, attempts = 0,
       error_code = NULL, error_message = NULL, lease_owner = NULL, lease_until = NULL, updated_at = now()
     WHERE ${fromStatusSql("correct")}`,
    edits.map((e) => e.rowId),
    edits.map((e) => e.columnId),
    sheetId,
    blank,
    edits.map((e) => e.aiValue),
  );
}

/**
 * Takes back the review that verified a done cell: `verified` and `stale` return to what they
 * were before it, and `dropAiValue` removes the model's answer a correction had set aside.
 * False when the cell is no longer a verified done cell.
 */
export async function unverifyCell(
  tx: Tx,
  ref: CellRef,
  before: { verified: boolean; stale: boolean; dropAiValue: boolean },
): Promise<boolean> {
  const n = await tx.$executeRawUnsafe(
    `UPDATE cells SET status = ${toStatusSql("unverify")}, verified = $3, stale = $4, reviewed_at = CASE WHEN $3 THEN reviewed_at ELSE NULL END,
       metadata = CASE WHEN $5 THEN metadata - 'aiValue' ELSE metadata END, updated_at = now()
     WHERE row_id = $1 AND column_id = $2 AND verified AND ${fromStatusSql("unverify")}`,
    ref.rowId,
    ref.columnId,
    before.verified,
    before.stale,
    before.dropAiValue,
  );
  return n === 1;
}
