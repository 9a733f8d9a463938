import { isGenerated } from "../fill/kinds.ts";
import type { Tx } from "../../db/database.ts";
import type { ColumnRecord } from "../column-model.ts";
import { transitiveDependents } from "../graph.ts";
import { patchValues, type ValueEdit } from "../rows/values.ts";
import { markStale } from "../cells/index.ts";
import { rowFormulas } from "../formulas/row-formulas.ts";

const BATCH_ROWS = 2_000;

/**
 * A schema change recomputes, over every row of the sheet, the formulas it touched: the changed
 * columns that are formulas and every formula downstream of them. AI cells downstream of a
 * formula value that changed become stale: a schema change never spends credits by itself, as a
 * new AI column does not run for existing rows until asked.
 */
export async function refreshFormulas(
  tx: Tx,
  sheetId: string,
  columns: readonly ColumnRecord[],
  changedIds: readonly string[],
): Promise<void> {
  const touched = transitiveDependents(columns, changedIds);
  for (const id of changedIds) touched.add(id);
  const formulas = await rowFormulas(columns, touched);
  if (!formulas) return;
  const dependentAi = columns.filter(
    (c) => isGenerated(c) && transitiveDependents(columns, [...formulas.columnIds]).has(c.id),
  );
  let after = -1n;
  for (;;) {
    const rows = await tx.$queryRawUnsafe<{ id: string; seq: bigint; values: Record<string, string> }[]>(
      `SELECT id, seq, "values" FROM rows WHERE sheet_id = $1 AND seq > $2 ORDER BY seq LIMIT ${BATCH_ROWS}`,
      sheetId,
      after,
    );
    if (rows.length === 0) return;
    const edits: ValueEdit[] = [];
    const staleRows = new Set<string>();
    for (const row of rows) {
      const next = await formulas.compute(row.values);
      for (const columnId of formulas.columnIds) {
        const value = next[columnId] ?? "";
        if (value === (row.values[columnId] ?? "")) continue;
        edits.push({ rowId: row.id, columnId, value });
        staleRows.add(row.id);
      }
    }
    await patchValues(tx, edits);
    await markStale(
      tx,
      [...staleRows].flatMap((rowId) => dependentAi.map((c) => ({ rowId, columnId: c.id }))),
    );
    after = rows[rows.length - 1].seq;
  }
}
