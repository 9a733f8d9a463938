import type { Tx } from "../../db/database.ts";
import { newId } from "../../ids.ts";
import { storedEntry, type CellChange, type StoredEntry } from "./entry.ts";

export type { CellChange, HistoryKind } from "./entry.ts";

// The one statement that adds changes to cells' histories. A statement module: cells, rows and
// review record their changes in the transaction that makes them, and the history's face
// (reading, reverting) sits above those aggregates.

/** The most changes one cell keeps; the oldest go first. Retention (days) usually comes first. */
export const MAX_ENTRIES_PER_CELL = 500;

/** Appends each change to its cell's history, in the order given, in one statement. */
export async function appendHistory(
  tx: Tx,
  baseId: string,
  changes: readonly CellChange[],
  now = new Date(),
): Promise<void> {
  if (changes.length === 0) return;
  const at = now.toISOString();
  const byCell = new Map<string, { rowId: string; columnId: string; entries: StoredEntry[]; runId: string | null }>();
  for (const c of changes) {
    const key = `${c.rowId}:${c.columnId}`;
    const cell = byCell.get(key) ?? { rowId: c.rowId, columnId: c.columnId, entries: [], runId: null };
    cell.entries.push(storedEntry(newId.historyEntry(), at, c));
    cell.runId = c.runId ?? null;
    byCell.set(key, cell);
  }
  const cells = [...byCell.values()];
  await tx.$executeRawUnsafe(
    `INSERT INTO cell_history (row_id, column_id, base_id, entries, entry_count, last_run_id, oldest_at)
     SELECT r, c, $1, e::jsonb, n, lr, $6::timestamptz
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $8::int[]) AS u(r, c, e, lr, n)
     ON CONFLICT (row_id, column_id) DO UPDATE SET
       entries = CASE WHEN cell_history.entry_count + excluded.entry_count <= $7
         THEN cell_history.entries || excluded.entries
         ELSE (SELECT jsonb_agg(x ORDER BY n) FROM jsonb_array_elements(cell_history.entries || excluded.entries) WITH ORDINALITY AS a(x, n)
               WHERE n > cell_history.entry_count + excluded.entry_count - $7) END,
       entry_count = least(cell_history.entry_count + excluded.entry_count, $7),
       last_run_id = excluded.last_run_id, updated_at = now()`,
    baseId,
    cells.map((c) => c.rowId),
    cells.map((c) => c.columnId),
    cells.map((c) => JSON.stringify(c.entries)),
    cells.map((c) => c.runId),
    at,
    MAX_ENTRIES_PER_CELL,
    cells.map((c) => c.entries.length),
  );
}
