import { isGenerated } from "../fill/kinds.ts";
import type { Work } from "../../db/work.ts";
import type { Tx } from "../../db/database.ts";
import type { ErrorCode } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { loadBase, loadColumns, touchBase } from "../base-context.ts";
import {
  acceptCells,
  cellKey,
  correctCells,
  readReviewState,
  type CellRef,
  type ReviewedCellState,
} from "../cells/index.ts";
import type { CellMetadata } from "../cell-view.ts";
import { columnOptionsOf, nameKey, type ColumnRecord } from "../column-model.ts";
import { columnType } from "../column-types/index.ts";
import { MAX_CELL_CHARS, settleRows, writeReviewedValues, type FormulaChange } from "../rows/index.ts";
import { appendHistory } from "../history/append.ts";
import { runCells } from "../runs/index.ts";
import { refitCalibration } from "../quality/index.ts";
import type { RunPolicy } from "../runs/index.ts";
import type { HISTORY_ACTIONS, ReviewRequest } from "./schemas.ts";

// Review: accept, correct or re-run AI cells, each action recorded with who did it and the cell
// before and after (the owner of `review_actions`), so accuracy can be measured from it.

type Item = ReviewRequest["cells"][number];

export interface ReviewError {
  rowId: string;
  columnId: string;
  code: ErrorCode;
  message: string;
}

interface Planned extends CellRef {
  action: Item["action"];
  column: ColumnRecord;
  value?: string;
}

/** The cell as the history records it. */
export const snapshot = (value: string, s: ReviewedCellState | undefined) => ({
  value,
  status: s?.status ?? "idle",
  verified: s?.verified ?? false,
  stale: s?.stale ?? false,
  confidence: ((s?.metadata ?? null) as Partial<CellMetadata> | null)?.confidenceScore ?? null,
});

export async function reviewCells(
  w: Work,
  actor: { workspaceId: string; actorId: string },
  baseId: string,
  req: ReviewRequest,
  policy: RunPolicy,
) {
  const { tx } = w;
  const baseCtx = await loadBase(tx, actor.workspaceId, baseId);
  const columns = await loadColumns(tx, baseCtx.sheetId);
  const rowIds = [...new Set(req.cells.map((c) => c.rowId))];
  const rows = await tx.row.findMany({
    where: { sheetId: baseCtx.sheetId, id: { in: rowIds } },
    select: { id: true, values: true },
  });
  const values = new Map(rows.map((r) => [r.id, (r.values ?? {}) as Record<string, string>]));
  const errors: ReviewError[] = [];
  const planned: Planned[] = [];
  const seen = new Set<string>();

  for (const item of req.cells) {
    const fail = (code: ErrorCode, message: string) =>
      void errors.push({ rowId: item.rowId, columnId: item.columnId, code, message });
    const column =
      columns.find((c) => c.id === item.columnId) ?? columns.find((c) => c.nameKey === nameKey(item.columnId));
    const key = column ? cellKey({ rowId: item.rowId, columnId: column.id }) : "";
    if (!column) fail("column_not_found", `No column "${item.columnId}" in this base.`);
    else if (!isGenerated(column))
      fail("not_reviewable", `"${column.name}" is not a generated column; only generated cells are reviewed.`);
    else if (!values.has(item.rowId)) fail("row_not_found", `No row "${item.rowId}" in this base.`);
    else if (seen.has(key)) fail("not_reviewable", "This cell is listed twice in the request.");
    else {
      seen.add(key);
      const value = item.action === "edit" ? normalized(column, item.value) : undefined;
      if (item.action === "edit" && typeof value !== "string")
        fail(value?.code ?? "invalid_value", value?.message ?? "edit needs a value.");
      else
        planned.push({
          rowId: item.rowId,
          columnId: column.id,
          column,
          action: item.action,
          value: value as string | undefined,
        });
    }
  }

  const before = new Map((await readReviewState(tx, planned)).map((s) => [cellKey(s), s]));
  const cellValueOf = (p: CellRef) => values.get(p.rowId)?.[p.columnId] ?? "";
  const accepts = planned.filter((p) => p.action === "accept");
  const accepted = new Set((await acceptCells(tx, accepts)).map(cellKey));
  for (const p of accepts) {
    if (accepted.has(cellKey(p))) continue;
    const status = before.get(cellKey(p))?.status ?? "idle";
    errors.push({
      rowId: p.rowId,
      columnId: p.columnId,
      code: "not_reviewable",
      message: `Only a done cell can be accepted; this one is ${status}. Edit or re-run it.`,
    });
  }

  const edits = planned.filter((p) => p.action === "edit");
  await correctCells(
    tx,
    baseCtx.sheetId,
    edits.map((p) => ({
      rowId: p.rowId,
      columnId: p.columnId,
      aiValue: modelValue(before.get(cellKey(p)), cellValueOf(p)),
    })),
  );
  const formulas = await writeReviewedValues(
    tx,
    columns,
    edits.map((p) => ({ rowId: p.rowId, columnId: p.columnId, value: p.value! })),
  );

  const reruns = planned.filter((p) => p.action === "rerun");
  for (const columnId of new Set(reruns.map((p) => p.columnId))) {
    const ids = reruns.filter((p) => p.columnId === columnId).map((p) => p.rowId);
    await runCells(w, actor.workspaceId, baseId, { columnIds: [columnId], rowIds: ids, force: true }, policy);
  }

  const done = planned.filter((p) => p.action !== "accept" || accepted.has(cellKey(p)));
  const after = new Map((await readReviewState(tx, done)).map((s) => [cellKey(s), s]));
  const afterValue = (p: Planned) => (p.action === "edit" ? p.value! : p.action === "rerun" ? "" : cellValueOf(p));
  const actionIds = await recordActions(
    tx,
    actor,
    baseCtx.baseId,
    done.map((p) => ({
      rowId: p.rowId,
      columnId: p.columnId,
      action: p.action,
      before: snapshot(cellValueOf(p), before.get(cellKey(p))),
      after: snapshot(afterValue(p), after.get(cellKey(p))),
    })),
    formulas,
  );

  // The column's calibration follows its history, in the same transaction.
  await refitCalibration(
    tx,
    done.map((p) => p.columnId),
  );
  if (edits.length > 0) await settleEditedRows(w, baseCtx, edits);
  if (done.length > 0) {
    await touchBase(tx, baseCtx.baseId);
    for (const p of done) {
      w.emit({
        type: "cell.updated",
        workspaceId: baseCtx.workspaceId,
        baseId: baseCtx.baseId,
        rowId: p.rowId,
        columnId: p.columnId,
        status: after.get(cellKey(p))?.status ?? "idle",
      });
    }
    w.emit({
      type: "rows.changed",
      workspaceId: baseCtx.workspaceId,
      baseId: baseCtx.baseId,
      rowIds: [...new Set(done.map((p) => p.rowId))],
      kind: "updated",
    });
  }
  return {
    cells: done.map((p, i) => {
      const s = after.get(cellKey(p));
      return {
        rowId: p.rowId,
        columnId: p.columnId,
        action: p.action,
        actionId: actionIds[i],
        value: afterValue(p),
        status: s?.status ?? "idle",
        verified: s?.verified ?? false,
      };
    }),
    errors,
  };
}

function normalized(column: ColumnRecord, raw: unknown): string | { code: ErrorCode; message: string } | undefined {
  if (raw === undefined) return undefined;
  if (raw === null || raw === "") return "";
  const n = columnType(column.type)!.normalize(raw, columnOptionsOf(column));
  if (!n.ok) return { code: "invalid_value", message: `${n.message} ("${column.name}" is a ${column.type} column.)` };
  if (n.value.length > MAX_CELL_CHARS)
    return { code: "value_too_long", message: "A cell value is at most 100,000 characters." };
  return n.value;
}

/** The model's answer a correction replaces: none when the value was the user's or the cell never ran. */
function modelValue(state: ReviewedCellState | undefined, value: string): string | null {
  const meta = (state?.metadata ?? null) as Partial<CellMetadata> | null;
  if (state?.status !== "done" || meta?.suppliedByUser || typeof meta?.aiValue === "string") return null;
  return value;
}

interface RecordedAction extends CellRef {
  action: (typeof HISTORY_ACTIONS)[number];
  before: ReturnType<typeof snapshot>;
  after: ReturnType<typeof snapshot>;
}

/** Appends to the review history and the cells' (even an accept), with the formulas recomputed; answers the ids. */
export async function recordActions(
  tx: Tx,
  actor: { workspaceId: string; actorId: string },
  baseId: string,
  list: readonly RecordedAction[],
  formulas: readonly FormulaChange[] = [],
): Promise<string[]> {
  const ids = list.map(() => newId.reviewAction());
  if (list.length === 0) return ids;
  await tx.reviewAction.createMany({
    data: list.map(({ rowId, columnId, action, before, after }, i) => ({
      id: ids[i],
      workspaceId: actor.workspaceId,
      baseId,
      rowId,
      columnId,
      action,
      actorKeyId: actor.actorId,
      before,
      after,
    })),
  });
  await appendHistory(tx, baseId, [
    ...list.map((a) => ({
      rowId: a.rowId,
      columnId: a.columnId,
      kind: "review" as const,
      before: { value: a.before.value, status: a.before.status },
      after: { value: a.after.value, status: a.after.status, confidence: a.after.confidence },
      actorId: actor.actorId,
      reason: a.action,
    })),
    ...formulas.map((f) => ({
      rowId: f.rowId,
      columnId: f.columnId,
      kind: "formula" as const,
      before: { value: f.before },
      after: { value: f.value },
      actorId: actor.actorId,
    })),
  ]);
  return ids;
}

/** A correction can finish a row's last open cell: the row settles (row.sheet.processed). */
async function settleEditedRows(w: Work, baseCtx: Awaited<ReturnType<typeof loadBase>>, edits: readonly CellRef[]) {
  const rowIds = [...new Set(edits.map((e) => e.rowId))];
  await w.tx.$executeRawUnsafe(`SELECT 1 FROM rows WHERE id = ANY($1::text[]) FOR UPDATE`, rowIds);
  const open = await w.tx.$queryRawUnsafe<{ row_id: string }[]>(
    `SELECT DISTINCT row_id FROM cells WHERE row_id = ANY($1::text[]) AND status IN ('pending', 'running')`,
    rowIds,
  );
  const stillOpen = new Set(open.map((o) => o.row_id));
  await settleRows(
    w,
    baseCtx,
    rowIds.filter((id) => !stillOpen.has(id)),
  );
}

/** The review history of a base, newest first. */
export async function reviewHistory(tx: Tx, workspaceId: string, baseId: string, limit: number) {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const actions = await tx.reviewAction.findMany({
    where: { baseId: baseCtx.baseId, workspaceId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return {
    actions: actions.map((a) => ({
      id: a.id,
      rowId: a.rowId,
      columnId: a.columnId,
      action: a.action,
      actorKeyId: a.actorKeyId,
      before: a.before,
      after: a.after,
      createdAt: a.createdAt.toISOString(),
    })),
  };
}
