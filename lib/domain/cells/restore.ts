import type { Tx } from "../../db/database.ts";
import type { CellMetadata } from "../cell-view.ts";
import { fromStatusSql, toStatusSql } from "./transitions.ts";
import type { CellRef } from "./types.ts";

// A revert's side of generated cells: the value (already written to the row) becomes the cell's
// again, with the sources and confidence it had. A cell reverted to no value is idle: no state at
// all, as before it ever ran. A newer generation drops any attempt still in flight.

export interface RestoredCell extends CellRef {
  value: string;
  sources: string[] | null;
  confidence: number | null;
  historyId: string;
}

const FINISHED = `status IN ('done', 'error', 'cancelled', 'skipped', 'not_found')`;

export async function restoreCells(tx: Tx, sheetId: string, cells: readonly RestoredCell[]): Promise<void> {
  const valued = cells.filter((c) => c.value !== "");
  const idle = cells.filter((c) => c.value === "");
  if (valued.length > 0)
    await tx.$executeRawUnsafe(
      `INSERT INTO cells (row_id, column_id, sheet_id, status, metadata, finished_at, checked_at)
       SELECT r, c, $3, ${toStatusSql("restore")}, m::jsonb, now(), now() FROM unnest($1::text[], $2::text[], $4::text[]) AS t(r, c, m)
       ON CONFLICT (row_id, column_id) DO UPDATE SET status = ${toStatusSql("restore")}, metadata = excluded.metadata,
         finished_at = now(), checked_at = now(), verified = false, stale = false, input_hash = NULL, previous_value = NULL,
         previous_status = NULL, generation = cells.generation + 1, attempts = 0, error_code = NULL, error_message = NULL,
         lease_owner = NULL, lease_until = NULL, updated_at = now()
       WHERE ${fromStatusSql("restore")}`,
      valued.map((c) => c.rowId),
      valued.map((c) => c.columnId),
      sheetId,
      valued.map((c) => JSON.stringify(restoredMetadata(c))),
    );
  if (idle.length > 0)
    await tx.$executeRawUnsafe(
      `DELETE FROM cells WHERE (row_id, column_id) IN (SELECT * FROM unnest($1::text[], $2::text[])) AND ${FINISHED}`,
      idle.map((c) => c.rowId),
      idle.map((c) => c.columnId),
    );
}

const restoredMetadata = (c: RestoredCell): CellMetadata => ({
  sources: c.sources,
  confidenceScore: c.confidence,
  additionalDetails: `Restored from this cell's history (${c.historyId}).`,
});
