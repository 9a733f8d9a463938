import type { Work } from "../../db/work.ts";
import { appError } from "../../errors.ts";
import { loadBase, loadColumns, touchBase } from "../base-context.ts";
import { readReviewState, unverifyCell } from "../cells/index.ts";
import { recordActions, snapshot } from "./actions.ts";
import { writeReviewedValues } from "../rows/index.ts";
import { refitCalibration } from "../quality/index.ts";

// Undo of a review: an accept or an edit is taken back, and the cell returns to what it was just
// before (its value, verified and stale). The undo is itself recorded, so the history still tells
// what a reviewer decided and then retracted.

interface Snapshot {
  value: string;
  status: string;
  verified: boolean;
  stale: boolean;
}

const notUndoable = (message: string) => appError("not_reviewable", message);

export async function undoReview(
  w: Work,
  actor: { workspaceId: string; actorId: string },
  baseId: string,
  actionId: string,
) {
  const { tx } = w;
  const baseCtx = await loadBase(tx, actor.workspaceId, baseId);
  const action = await tx.reviewAction.findFirst({
    where: { id: actionId, baseId: baseCtx.baseId, workspaceId: actor.workspaceId },
  });
  if (!action) throw appError("review_action_not_found", `No review action "${actionId}" in this base.`);
  if (action.action !== "accept" && action.action !== "edit")
    throw notUndoable(`A ${action.action} cannot be undone; review the cell again instead.`);
  const ref = { rowId: action.rowId, columnId: action.columnId };
  // Rows lock first, as every other cell writer does.
  const row = await tx.$queryRawUnsafe<{ values: Record<string, string> }[]>(
    `SELECT "values" FROM rows WHERE id = $1 AND sheet_id = $2 FOR UPDATE`,
    ref.rowId,
    baseCtx.sheetId,
  );
  if (row.length === 0) throw notUndoable("The row of this review action was deleted.");

  const later = await tx.reviewAction.count({
    where: { baseId: baseCtx.baseId, rowId: ref.rowId, columnId: ref.columnId, createdAt: { gt: action.createdAt } },
  });
  if (later > 0) throw notUndoable("A later review action changed this cell; undo that one first.");
  const before = action.before as unknown as Snapshot;
  const after = action.after as unknown as Snapshot;
  if (before.status !== "done")
    throw notUndoable(
      `The cell was ${before.status} before this edit, so there is no value to go back to; re-run it instead.`,
    );
  const value = row[0].values?.[ref.columnId] ?? "";
  const [state] = await readReviewState(tx, [ref]);
  if (!state?.verified || state.status !== "done" || value !== after.value)
    throw notUndoable("The cell changed since this review action; review it again instead.");

  const current = snapshot(value, state);
  const restored = await unverifyCell(tx, ref, {
    verified: before.verified,
    stale: before.stale,
    dropAiValue: action.action === "edit" && !before.verified,
  });
  if (!restored) throw notUndoable("The cell changed since this review action; review it again instead.");
  const formulas =
    action.action === "edit"
      ? await writeReviewedValues(tx, await loadColumns(tx, baseCtx.sheetId), [{ ...ref, value: before.value }])
      : [];
  const [now] = await readReviewState(tx, [ref]);
  const [undoId] = await recordActions(
    tx,
    actor,
    baseCtx.baseId,
    [{ ...ref, action: "undo", before: current, after: snapshot(before.value, now) }],
    formulas,
  );
  await refitCalibration(tx, [ref.columnId]);

  await touchBase(tx, baseCtx.baseId);
  w.emit({
    type: "cell.updated",
    workspaceId: baseCtx.workspaceId,
    baseId: baseCtx.baseId,
    rowId: ref.rowId,
    columnId: ref.columnId,
    status: "done",
  });
  w.emit({
    type: "rows.changed",
    workspaceId: baseCtx.workspaceId,
    baseId: baseCtx.baseId,
    rowIds: [ref.rowId],
    kind: "updated",
  });
  return {
    ...ref,
    action: "undo" as const,
    actionId: undoId,
    undone: action.id,
    value: before.value,
    status: "done",
    verified: now?.verified ?? false,
  };
}
