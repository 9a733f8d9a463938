import type { Tx } from "../../db/database.ts";
import type { Work } from "../../db/work.ts";
import type { BaseContext } from "../base-context.ts";
import { fromStatusSql, toStatusSql } from "./transitions.ts";
import { patchValues } from "../rows/values.ts";
import { settleFinished } from "./settle.ts";
import type { CellRef } from "./types.ts";

// A cancelled run's cells: the waiting ones never run, the running ones are aborted (their
// worker hears `cells.cancelled`; an answer that still arrives finds the cell cancelled and is
// dropped, uncharged). A cell gets back the value it had before the run queued it.

/** Above this many cells, one rows.changed replaces the per-cell events (live views refetch). */
const PER_CELL_EVENTS = 1_000;

export async function cancelRunCells(w: Work, baseCtx: BaseContext, runId: string): Promise<number> {
  const cancelled = await w.tx.$queryRawUnsafe<
    { row_id: string; column_id: string; was: string; previous_value: string | null }[]
  >(
    `WITH old AS (
       SELECT row_id, column_id, status, previous_value FROM cells WHERE run_id = $1 AND ${fromStatusSql("cancel")} FOR UPDATE)
     UPDATE cells SET status = ${toStatusSql("cancel")}, error_code = 'cancelled', error_message = 'The run was cancelled.',
       lease_owner = NULL, lease_until = NULL, finished_at = now(), updated_at = now(), previous_value = NULL, previous_status = NULL
     FROM old WHERE cells.row_id = old.row_id AND cells.column_id = old.column_id AND ${fromStatusSql("cancel")}
     RETURNING cells.row_id, cells.column_id, old.status AS was, old.previous_value`,
    runId,
  );
  if (cancelled.length === 0) return 0;
  const rowIds = [...new Set(cancelled.map((c) => c.row_id))];
  // Locks the rows (settleFinished relies on it) and puts the earlier values back.
  await w.tx.$executeRawUnsafe(`SELECT 1 FROM rows WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`, rowIds);
  const restore = cancelled.filter((c) => c.previous_value !== null);
  // A previous value is never empty (queueCells keeps none), so the patch only sets values.
  await patchValues(
    w.tx,
    restore.map((c) => ({ rowId: c.row_id, columnId: c.column_id, value: c.previous_value! })),
  );
  const running = cancelled
    .filter((c) => c.was === "running")
    .map((c): CellRef => ({ rowId: c.row_id, columnId: c.column_id }));
  if (running.length > 0) w.emit({ type: "cells.cancelled", refs: running });
  if (cancelled.length <= PER_CELL_EVENTS) {
    for (const c of cancelled) {
      w.emit({
        type: "cell.updated",
        workspaceId: baseCtx.workspaceId,
        baseId: baseCtx.baseId,
        rowId: c.row_id,
        columnId: c.column_id,
        status: "cancelled",
      });
    }
  } else {
    w.emit({ type: "rows.changed", workspaceId: baseCtx.workspaceId, baseId: baseCtx.baseId, rowIds, kind: "updated" });
  }
  await settleFinished(
    w,
    rowIds.map((rowId) => ({ baseCtx, rowId })),
  );
  return cancelled.length;
}

/** The pending cells of a run (resume queues their jobs again). */
export async function pendingCellsOfRun(tx: Tx, runId: string): Promise<CellRef[]> {
  const rows = await tx.$queryRawUnsafe<{ row_id: string; column_id: string }[]>(
    `SELECT row_id, column_id FROM cells WHERE run_id = $1 AND status = 'pending'`,
    runId,
  );
  return rows.map((r) => ({ rowId: r.row_id, columnId: r.column_id }));
}
