import type { Tx } from "../db/database.ts";
import { userSuppliedMetadata } from "../domain/cell-view.ts";

export interface CellRef {
  rowId: string;
  columnId: string;
}

// Every (re)run request bumps the generation: a run still in flight for an older generation
// finds its result discarded, and credits are keyed by generation so nothing is charged twice.
const RESET = `generation = cells.generation + 1, attempts = 0, error_code = NULL, error_message = NULL,
  stale = false, lease_owner = NULL, lease_until = NULL, started_at = NULL, updated_at = now()`;

/** Queues cells to (re)run: they become pending, with an empty value. */
export async function markCellsPending(tx: Tx, sheetId: string, refs: readonly CellRef[]): Promise<void> {
  if (refs.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO cells (row_id, column_id, sheet_id, status, available_at)
     SELECT r, c, $3, 'pending', now() FROM unnest($1::text[], $2::text[]) AS t(r, c)
     ON CONFLICT (row_id, column_id) DO UPDATE SET status = 'pending', metadata = NULL, finished_at = NULL,
       available_at = now(), ${RESET}`,
    refs.map((r) => r.rowId),
    refs.map((r) => r.columnId),
    sheetId,
  );
}

/** Stores user-written values of AI cells as done and supplied by the user. */
export async function markCellsSupplied(tx: Tx, sheetId: string, refs: readonly CellRef[]): Promise<void> {
  if (refs.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO cells (row_id, column_id, sheet_id, status, metadata, finished_at)
     SELECT r, c, $3, 'done', $4::jsonb, now() FROM unnest($1::text[], $2::text[]) AS t(r, c)
     ON CONFLICT (row_id, column_id) DO UPDATE SET status = 'done', metadata = $4::jsonb, finished_at = now(), ${RESET}`,
    refs.map((r) => r.rowId),
    refs.map((r) => r.columnId),
    sheetId,
    JSON.stringify(userSuppliedMetadata()),
  );
}
