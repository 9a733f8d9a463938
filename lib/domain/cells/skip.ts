import type { Work } from "../../db/work.ts";
import type { BaseContext } from "../base-context.ts";
import type { CellMetadata } from "../cell-view.ts";
import { clearValues } from "../rows/values.ts";
import { lockRunsOf } from "./budget.ts";
import { settleFinished } from "./settle.ts";
import { fromStatusSql, toStatusSql } from "./transitions.ts";
import type { ClaimedCell } from "./types.ts";
import { recordWrittenValues } from "./answer-history.ts";
import { endedWithoutValue } from "./written-values.ts";

/** What a skipped cell's metadata says: there is no value because the row did not match. */
export const skippedMetadata = (): CellMetadata => ({
  sources: null,
  additionalDetails: "Skipped: this row does not match the column's run condition (runIf), so the model was not asked.",
  confidenceScore: null,
});

/**
 * Ends a claimed cell as skipped: its column's run condition is false for the row. No model call
 * was made, so nothing is charged and no attempt is recorded; the hash keeps what the decision
 * was made from, so writing the same values again does not ask again. Fenced like every outcome.
 */
export async function skipCell(
  w: Work,
  baseCtx: BaseContext,
  job: ClaimedCell,
  owner: string,
  inputHash: string,
): Promise<boolean> {
  // The run first, as the other outcomes: whichever outcome of the run commits last finishes it.
  await lockRunsOf(w.tx, [job]);
  const n = await w.tx.$executeRawUnsafe(
    `UPDATE cells SET status = ${toStatusSql("skip")}, error_code = NULL, error_message = NULL, metadata = $5::jsonb,
       input_hash = $6, stale = false, checked_at = now(), finished_at = now(), lease_owner = NULL,
       lease_until = NULL, updated_at = now()
     WHERE row_id = $1 AND column_id = $2 AND generation = $3 AND lease_owner = $4 AND ${fromStatusSql("skip")}`,
    job.rowId,
    job.columnId,
    job.generation,
    owner,
    JSON.stringify(skippedMetadata()),
    inputHash,
  );
  if (n === 0) return false;
  // A skipped cell has no value (a queued cell may still hold its last one); this also takes the
  // row's lock, which settleFinished relies on.
  await clearValues(w.tx, [job]);
  await recordWrittenValues(w, await endedWithoutValue(w.tx, baseCtx, [job], "skipped"));
  w.emit({
    type: "cell.updated",
    workspaceId: baseCtx.workspaceId,
    baseId: baseCtx.baseId,
    rowId: job.rowId,
    columnId: job.columnId,
    status: "skipped",
  });
  await settleFinished(w, [{ baseCtx, rowId: job.rowId }]);
  // Cells of the row that waited for this one are ready now.
  w.emit({ type: "work.available" });
  return true;
}
