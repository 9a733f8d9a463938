import type { Tx } from "../../db/database.ts";
import { appError } from "../../errors.ts";
import { loadBase, type BaseContext } from "../base-context.ts";
import { decodeTimeCursor, encodeTimeCursor } from "../../time-cursor.ts";
import { DEFAULT_HISTORY_PAGE, MAX_HISTORY_PAGE, entryView, type HistoryEntryView, type StoredEntry } from "./entry.ts";

// Reading cells' histories: a row's changes, newest first, paged; and one cell's entries, for a
// revert. Every read is scoped to the base, itself scoped to the workspace.

export interface HistoryQuery {
  columnId?: string;
  limit?: number;
  cursor?: string;
}

/** The row of the base, locked when `lock` (a revert), or row_not_found. */
export async function rowOfBase(tx: Tx, baseCtx: BaseContext, rowId: string, lock = false) {
  const [row] = await tx.$queryRawUnsafe<{ values: Record<string, string> }[]>(
    `SELECT "values" FROM rows WHERE id = $1 AND sheet_id = $2${lock ? " FOR UPDATE" : ""}`,
    rowId,
    baseCtx.sheetId,
  );
  if (!row) throw appError("row_not_found", `No row "${rowId}" in this base.`);
  return row;
}

export async function cellEntries(tx: Tx, baseId: string, rowId: string, columnId?: string) {
  return tx.$queryRawUnsafe<{ column_id: string; entries: StoredEntry[] }[]>(
    `SELECT column_id, entries FROM cell_history WHERE row_id = $1 AND base_id = $2${columnId ? " AND column_id = $3" : ""}`,
    rowId,
    baseId,
    ...(columnId ? [columnId] : []),
  );
}

export async function rowHistory(
  tx: Tx,
  workspaceId: string,
  baseId: string,
  rowId: string,
  q: HistoryQuery,
): Promise<{ entries: HistoryEntryView[]; nextCursor: string | null }> {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  await rowOfBase(tx, baseCtx, rowId);
  if (q.columnId) {
    const n = await tx.column.count({ where: { id: q.columnId, sheetId: baseCtx.sheetId } });
    if (n === 0) throw appError("column_not_found", `No column "${q.columnId}" in this base.`);
  }
  const after = q.cursor ? decodeTimeCursor(q.cursor) : null;
  const limit = Math.min(q.limit ?? DEFAULT_HISTORY_PAGE, MAX_HISTORY_PAGE);
  const all = (await cellEntries(tx, baseCtx.baseId, rowId, q.columnId))
    .flatMap((c) => c.entries.map((e) => entryView(rowId, c.column_id, e)))
    .sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1))
    .filter((e) => !after || e.at < after.at.toISOString() || (e.at === after.at.toISOString() && e.id < after.id));
  const page = all.slice(0, limit);
  const last = page[page.length - 1];
  return { entries: page, nextCursor: all.length > limit ? encodeTimeCursor(new Date(last.at), last.id) : null };
}
