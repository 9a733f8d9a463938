import type { Tx } from "../db/database.ts";
import type { ColumnRecord } from "../domain/column-model.ts";
import type { BaseContext } from "../domain/bases.ts";
import type { CellJob } from "../jobs/types.ts";

export interface CellContext {
  base: BaseContext;
  column: ColumnRecord;
  columns: ColumnRecord[];
  values: Record<string, string>;
  /** AI input cells that ended in error (their failure fails this cell). */
  failedInputs: ColumnRecord[];
  /** The workspace's balance; null is unlimited. */
  credits: number | null;
}

type ContextRow = {
  generation: number;
  status: string;
  lease_owner: string | null;
  values: unknown;
  base_id: string;
  base_name: string;
  workspace_id: string;
  credits: bigint | null;
  failed_inputs: string[];
};

/**
 * Loads what a run needs in two queries (this is the engine's hot path), or null when the job is
 * obsolete: the cell is gone, was queued again, or is leased to someone else.
 */
export async function loadCellContext(db: Tx, job: CellJob, owner: string): Promise<CellContext | null> {
  const [rows, columns] = await Promise.all([
    db.$queryRawUnsafe<ContextRow[]>(
      `SELECT c.generation, c.status, c.lease_owner, r."values", b.id AS base_id, b.name AS base_name,
              b.workspace_id, w.credits,
              ARRAY(SELECT d.column_id FROM cells d JOIN columns col ON col.id = c.column_id
                    WHERE d.row_id = c.row_id AND d.column_id = ANY(col.input_column_ids) AND d.status = 'error') AS failed_inputs
       FROM cells c
       JOIN rows r ON r.id = c.row_id
       JOIN sheets s ON s.id = c.sheet_id
       JOIN bases b ON b.id = s.base_id
       JOIN workspaces w ON w.id = b.workspace_id
       WHERE c.row_id = $1 AND c.column_id = $2`,
      job.rowId,
      job.columnId,
    ),
    db.column.findMany({ where: { sheetId: job.sheetId }, orderBy: { position: "asc" } }),
  ]);
  const row = rows[0];
  if (!row || row.generation !== job.generation || row.status !== "running" || row.lease_owner !== owner) return null;
  const column = columns.find((c) => c.id === job.columnId);
  if (!column) return null;
  const failed = new Set(row.failed_inputs);
  return {
    base: { baseId: row.base_id, workspaceId: row.workspace_id, sheetId: job.sheetId, name: row.base_name },
    column,
    columns,
    values: (row.values ?? {}) as Record<string, string>,
    failedInputs: columns.filter((c) => failed.has(c.id)),
    credits: row.credits === null ? null : Number(row.credits),
  };
}
