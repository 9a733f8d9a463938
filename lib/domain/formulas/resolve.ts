import { appError } from "../../errors.ts";
import type { ColumnRecord } from "../column-model.ts";
import { compileFormula } from "./compile.ts";
import { formulaOf, isGenerated, type Fill } from "../fill/schema.ts";

/**
 * A formula column's inputs are the columns its expression names, so the DAG (order, cycles,
 * what a change recomputes) follows the expression and never a list kept by hand beside it.
 * A formula reads entered values and other formulas: a value still being generated would give it
 * an answer that changes later without a write to recompute it.
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
    if (isGenerated(column)) {
      throw appError(
        "invalid_formula",
        `The formula reads "${name}", a generated column (AI, HTTP or waterfall); a formula reads entered values and other formulas.`,
        { field: "fill.expression", name },
      );
    }
    ids.push(column.id);
  }
  return ids;
}

/** Refuses to make an AI column of a column a formula reads (see formulaInputs). */
export function assertNoFormulaReads(others: readonly ColumnRecord[], selfId: string, name: string): void {
  const reader = others.find((c) => c.id !== selfId && formulaOf(c) !== null && c.inputColumnIds.includes(selfId));
  if (reader) {
    throw appError(
      "validation_failed",
      `"${name}" cannot be generated (AI, HTTP or waterfall): the formula of "${reader.name}" reads it, and formulas read entered values.`,
      { field: "isAiEnabled", column: reader.name },
    );
  }
}
