import type { Tx } from "../db/database.ts";
import { appError } from "../errors.ts";
import type { ColumnRecord } from "./column-model.ts";

// The first step of every base-scoped operation: find the base in the caller's workspace.

export interface BaseContext {
  baseId: string;
  workspaceId: string;
  sheetId: string;
  name: string;
}

/** Finds a base of this workspace; another workspace's base is indistinguishable from none. */
export async function loadBase(tx: Tx, workspaceId: string, baseId: string): Promise<BaseContext> {
  // One statement: every endpoint starts here, and a round trip per request counts under load.
  const [base] = await tx.$queryRawUnsafe<{ id: string; name: string; sheet_id: string }[]>(
    `SELECT b.id, b.name, s.id AS sheet_id FROM bases b JOIN sheets s ON s.base_id = b.id WHERE b.id = $1 AND b.workspace_id = $2`,
    baseId,
    workspaceId,
  );
  if (!base) throw appError("base_not_found", `No base "${baseId}" in this workspace.`);
  return { baseId: base.id, workspaceId, sheetId: base.sheet_id, name: base.name };
}

export async function loadColumns(tx: Tx, sheetId: string): Promise<ColumnRecord[]> {
  return tx.column.findMany({ where: { sheetId }, orderBy: { position: "asc" } });
}

/** One AI column of the base: 404 column_not_found, or 409 not_reviewable for a column the AI does not fill. */
export async function loadAiColumn(tx: Tx, baseCtx: BaseContext, columnId: string): Promise<ColumnRecord> {
  const column = await tx.column.findFirst({ where: { id: columnId, sheetId: baseCtx.sheetId } });
  if (!column) throw appError("column_not_found", `No column "${columnId}" in this base.`);
  if (!column.isAiEnabled)
    throw appError(
      "not_reviewable",
      `"${column.name}" is not an AI column; quality and evaluations are measured on AI columns.`,
    );
  return column;
}

export const touchBase = (tx: Tx, baseId: string) =>
  tx.base.update({ where: { id: baseId }, data: { updatedAt: new Date() }, select: { id: true } });
