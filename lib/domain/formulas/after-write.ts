import type { ColumnRecord } from "../column-model.ts";
import { transitiveDependents } from "../graph.ts";
import { rowFormulas } from "./row-formulas.ts";

// Formulas over values written outside a row write (a generated cell's value, an HTTP column's
// outputs, a reviewer's correction): recomputed from the row at once, as applyWrites does for
// the values a client writes.

const isFormula = (c: ColumnRecord) => (c.fill as { kind?: string } | null)?.kind === "formula";

/**
 * The formula values of a row after `written` (column id → value) lands on `values`: those of the
 * formulas that read a written column, directly or through other formulas. Empty when none does.
 */
export async function formulasAfterWrite(
  columns: readonly ColumnRecord[],
  values: Readonly<Record<string, string>>,
  written: Readonly<Record<string, string>>,
): Promise<Record<string, string>> {
  const ids = Object.keys(written);
  if (!columns.some(isFormula)) return {};
  const touched = transitiveDependents(
    columns.map((c) => ({ ...c, runIf: null, writerColumnIds: [] })),
    ids,
  );
  const formulas = await rowFormulas(columns, touched);
  if (!formulas) return {};
  const next = await formulas.compute({ ...values, ...written });
  return Object.fromEntries([...formulas.columnIds].map((id) => [id, next[id] ?? ""]));
}
