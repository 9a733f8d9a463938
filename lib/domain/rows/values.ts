import type { Tx } from "../../db/database.ts";

// The statements that edit a row's stored values in place, for the other aggregates: a run's
// answers (cells/outcomes.ts), a cancelled run's earlier values (cells/cancel.ts), a run that
// clears what it regenerates (runs/request.ts), reviewers' corrections and a column's type change
// or removal (columns/). Rows are inserted, updated whole and deleted by apply.ts and write.ts.

export type ValueEdit = { rowId: string; columnId: string; value: string };

/**
 * One statement that sets single values: `edits` is a relation of (row_id, column_id, value),
 * an empty value removes the key. A fragment so that a caller can keep it inside its own
 * statement (storeValues writes cells, values and attempt records in one round trip).
 */
export const patchValuesSql = (edits: string) =>
  `UPDATE rows SET "values" = (rows."values" - e.cleared) || e.patch, updated_at = now()
   FROM (SELECT row_id,
           COALESCE(jsonb_object_agg(column_id, value) FILTER (WHERE value <> ''), '{}'::jsonb) AS patch,
           COALESCE(array_agg(column_id) FILTER (WHERE value = ''), ARRAY[]::text[]) AS cleared
         FROM ${edits} GROUP BY row_id) e
   WHERE rows.id = e.row_id`;

/** Sets (or, with an empty value, removes) single values, as reviewers' corrections and a cancel's restore do. */
export async function patchValues(tx: Tx, edits: readonly ValueEdit[]): Promise<void> {
  if (edits.length === 0) return;
  await tx.$executeRawUnsafe(
    patchValuesSql("unnest($1::text[], $2::text[], $3::text[]) AS u(row_id, column_id, value)"),
    edits.map((e) => e.rowId),
    edits.map((e) => e.columnId),
    edits.map((e) => e.value),
  );
}

/** Removes the named values (a run empties the cells it regenerates). */
export async function clearValues(tx: Tx, refs: readonly { rowId: string; columnId: string }[]): Promise<void> {
  if (refs.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE rows r SET "values" = r."values" - t.cols
     FROM (SELECT row_id, array_agg(column_id) AS cols FROM unnest($1::text[], $2::text[]) AS u(row_id, column_id) GROUP BY row_id) t
     WHERE r.id = t.row_id`,
    refs.map((r) => r.rowId),
    refs.map((r) => r.columnId),
  );
}

/** A column's values, converted to its new type: the empty string where the type refuses one. */
export async function setColumnValues(
  tx: Tx,
  columnId: string,
  values: readonly { rowId: string; value: string }[],
): Promise<void> {
  if (values.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE rows SET "values" = jsonb_set(rows."values", ARRAY[$1], to_jsonb(t.v))
     FROM unnest($2::text[], $3::text[]) AS t(id, v) WHERE rows.id = t.id`,
    columnId,
    values.map((v) => v.rowId),
    values.map((v) => v.value),
  );
}

/** A deleted column's values leave every row of its sheet. */
export async function dropColumnValues(tx: Tx, sheetId: string, columnId: string): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE rows SET "values" = "values" - $1 WHERE sheet_id = $2 AND "values" ? $1`,
    columnId,
    sheetId,
  );
}
