import type { Tx } from "../../db/database.ts";
import { appError } from "../../errors.ts";
import { loadColumns } from "../base-context.ts";
import type { ColumnRecord } from "../column-model.ts";
import { outputNamesOf, writerEdges } from "../fill/outputs.ts";
import { fillOf } from "../fill/schema.ts";
import { writeJsonFields } from "./json-fields.ts";
import type { StoredRunIf } from "./run-if.ts";

/**
 * Stores, after any change to a sheet's columns, which writers each column reads (fill/outputs.ts).
 * Returns the column's writers.
 */
export async function refreshWriterEdges(tx: Tx, sheetId: string, columnId?: string): Promise<string[]> {
  const columns = await loadColumns(tx, sheetId);
  const edges = writerEdges(columns);
  for (const c of columns) {
    const next = edges.get(c.id) ?? [];
    if (next.length === c.writerColumnIds.length && next.every((id) => c.writerColumnIds.includes(id))) continue;
    await tx.column.update({ where: { id: c.id }, data: { writerColumnIds: next } });
  }
  return (columnId && edges.get(columnId)) || [];
}

/**
 * A column being deleted leaves the outputs of the columns that write it; without `force` the
 * delete is refused while one does.
 */
export async function releaseOutput(
  tx: Tx,
  columns: readonly ColumnRecord[],
  column: ColumnRecord,
  force: boolean,
): Promise<void> {
  const writers = columns.filter((c) => c.id !== column.id && outputNamesOf(c).includes(column.name));
  if (writers.length > 0 && !force)
    throw appError(
      "column_in_use",
      `Column "${writers[0].name}" writes this column as an output; pass ?force=true to delete it anyway.`,
      { dependents: writers.map((w) => w.id) },
    );
  for (const w of writers) {
    const fill = fillOf(w);
    if (fill?.kind !== "http" || !fill.outputs) continue;
    const { [column.name]: _, ...outputs } = fill.outputs;
    await writeJsonFields(tx, w.id, { fill: { ...fill, outputs }, runIf: w.runIf as StoredRunIf | null });
  }
}
