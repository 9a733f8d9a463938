import type { Work } from "../../db/work.ts";
import type { BaseContext } from "../base-context.ts";

/**
 * Rows whose AI cells are all terminal after a write or a run: `row.sheet.processed` fires once
 * for each, after commit. The settlement is announced inside the transaction too, so that the
 * webhook outbox is written with it: a delivery exists exactly when the change that causes it
 * has committed.
 */
export async function settleRows(w: Work, baseCtx: BaseContext, rowIds: readonly string[]): Promise<void> {
  if (rowIds.length === 0) return;
  await w.publish({ type: "rows.settled", base: baseCtx, rowIds });
  for (const rowId of rowIds) {
    w.emit({
      type: "row.sheet.processed",
      workspaceId: baseCtx.workspaceId,
      baseId: baseCtx.baseId,
      sheetId: baseCtx.sheetId,
      rowId,
    });
  }
}
