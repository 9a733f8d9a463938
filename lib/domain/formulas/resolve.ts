import { appError } from "../../errors.ts";
import type { ColumnRecord } from "../column-model.ts";
import { compileFormula } from "./compile.ts";
import type { Fill } from "../fill/schema.ts";

/**
 * A formula column's inputs are the columns its expression names, so the DAG (order, cycles,
 * what a change recomputes) follows the expression and never a list kept by hand beside it.
 * A formula over a generated column is recomputed when that column's cell stores its value.
 */
export async function formulaInputs(
  others: readonly ColumnRecord[],
  fill: Extract<Fill, { kind: "formula" }>,
  selfId: string,
): Promise<string[]> {
  const compiled = await compileFormula(fill.expression);
  const ids: string[] = [];
  for (const name of compiled.names) {
    const column = others.find((c) => c.name === name && c.id !== selfId);
    if (!column) {
      const hint = others.find((c) => c.name.toLowerCase() === name.toLowerCase());
      throw appError(
        "invalid_formula",
        `The formula names "${name}", which is not a column of this base${hint ? ` (did you mean "${hint.name}"? names are matched exactly)` : ""}.`,
        { field: "fill.expression", name },
      );
    }
    ids.push(column.id);
  }
  return ids;
}
