import type { Tx } from "../db/database.ts";
import type { ColumnRecord } from "../domain/column-model.ts";
import type { BaseContext } from "../domain/bases.ts";
import type { CellJob } from "../jobs/types.ts";

export interface CellContext {
  base: BaseContext;
  column: ColumnRecord;
  columns: ColumnRecord[];
  values: Record<string, string>;
  /** AI input cells that did not end done (their failure fails this cell). */
  failedInputs: ColumnRecord[];
}

/** Loads what a run needs, or null when the job is obsolete (cell gone, re-queued or taken). */
export async function loadCellContext(db: Tx, job: CellJob, owner: string): Promise<CellContext | null> {
  const cell = await db.cell.findUnique({
    where: { rowId_columnId: { rowId: job.rowId, columnId: job.columnId } },
    select: { generation: true, status: true, leaseOwner: true },
  });
  if (!cell || cell.generation !== job.generation || cell.status !== "running" || cell.leaseOwner !== owner) return null;
  const [row, columns, sheet] = await Promise.all([
    db.row.findUnique({ where: { id: job.rowId }, select: { values: true } }),
    db.column.findMany({ where: { sheetId: job.sheetId }, orderBy: { position: "asc" } }),
    db.sheet.findUnique({ where: { id: job.sheetId }, select: { baseId: true } }),
  ]);
  const column = columns.find((c) => c.id === job.columnId);
  const base = sheet && (await db.base.findUnique({ where: { id: sheet.baseId }, select: { id: true, name: true, workspaceId: true } }));
  if (!row || !column || !base) return null;
  const inputCells = column.inputColumnIds.length
    ? await db.cell.findMany({ where: { rowId: job.rowId, columnId: { in: column.inputColumnIds } }, select: { columnId: true, status: true } })
    : [];
  const failed = new Set(inputCells.filter((c) => c.status === "error").map((c) => c.columnId));
  return {
    base: { baseId: base.id, workspaceId: base.workspaceId, sheetId: job.sheetId, name: base.name },
    column,
    columns,
    values: (row.values ?? {}) as Record<string, string>,
    failedInputs: columns.filter((c) => failed.has(c.id)),
  };
}
