import { createHash } from "node:crypto";
import { columnOptionsOf, type ColumnRecord } from "./column-model.ts";
import { runIfColumnIds } from "./graph.ts";

type HashColumn = Pick<ColumnRecord, "id" | "inputColumnIds" | "instructions" | "tools" | "columnOptions"> &
  Partial<Pick<ColumnRecord, "fill" | "runIf">>;

/**
 * What a generated cell is generated from, as a hash: its inputs' values (and the primary
 * column's, which the prompt also shows), its column's instructions, tools, model and fill, and
 * its run condition with the values it reads (the fill and the condition only when set, so hashes
 * stored before they existed still match). Names, positions and the column's type are left out on
 * purpose: changing them does not change what is asked, so a cell whose hash is unchanged is never
 * run again.
 */
export function inputHash(
  column: HashColumn,
  primaryId: string | undefined,
  values: Readonly<Record<string, string>>,
): string {
  const ids = [
    ...new Set([...column.inputColumnIds, ...(primaryId && primaryId !== column.id ? [primaryId] : [])]),
  ].sort();
  const payload = {
    inputs: ids.map((id) => [id, values[id] ?? ""]),
    instructions: column.instructions.trim(),
    tools: [...column.tools].sort(),
    model: String(columnOptionsOf(column as ColumnRecord).model ?? ""),
    // Only when set, so the hashes of AI columns stay what they were before fills existed.
    ...(column.fill ? { fill: column.fill } : {}),
    ...(column.runIf != null
      ? { runIf: column.runIf, runIfInputs: runIfColumnIds(column.runIf).map((id) => [id, values[id] ?? ""]) }
      : {}),
  };
  return createHash("sha256").update(JSON.stringify(payload)).digest("base64url");
}

/** The same hash, with the primary column found among the sheet's columns. */
export function inputHashIn(
  columns: readonly Pick<ColumnRecord, "id" | "isPrimary">[],
  column: HashColumn,
  values: Readonly<Record<string, string>>,
): string {
  return inputHash(column, columns.find((c) => c.isPrimary)?.id, values);
}
