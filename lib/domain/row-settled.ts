import type { Work } from "../db/work.ts";
import type { BaseContext } from "./bases.ts";
import { enqueueRowsProcessed } from "../webhooks/outbox.ts";

/**
 * Rows whose AI cells are all terminal after a write or a run: `row.sheet.processed` fires once
 * for each, after commit. The webhook outbox is written here, in the same transaction, so a
 * delivery exists exactly when the change that causes it has committed.
 */
export async function settleRows(w: Work, ctx: BaseContext, rowIds: readonly string[]): Promise<void> {
  await enqueueRowsProcessed(w.tx, ctx, rowIds);
  for (const rowId of rowIds) {
    w.emit({ type: "row.sheet.processed", workspaceId: ctx.workspaceId, baseId: ctx.baseId, sheetId: ctx.sheetId, rowId });
  }
}
