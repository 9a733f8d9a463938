import type { ColumnRecord } from "../column-model.ts";
import { topologicalOrder } from "../graph.ts";
import { cellValueOf } from "./cell-value.ts";
import { compileFormula, type CompiledFormula } from "./compile.ts";
import { formulaOf } from "../fill/schema.ts";

/** A row's values by column id (as rows store them). */
type RowValues = Record<string, string>;

/** A base's formula columns, compiled once per write and applied to each row in dependency order. */
export interface RowFormulas {
  readonly columnIds: ReadonlySet<string>;
  /** The row's values with every formula column computed from the others. */
  compute(values: RowValues): Promise<RowValues>;
}

/**
 * The formulas among `columns`, or null when there are none (a write then costs nothing more).
 * `only` limits them to these column ids (a schema change recomputes the formulas it touched).
 */
export async function rowFormulas(
  columns: readonly ColumnRecord[],
  only?: ReadonlySet<string>,
): Promise<RowFormulas | null> {
  const byId = new Map(columns.map((c) => [c.id, c]));
  const ordered: { column: ColumnRecord; formula: CompiledFormula }[] = [];
  for (const id of topologicalOrder(columns)) {
    const column = byId.get(id);
    const expression = column ? formulaOf(column) : null;
    if (!column || expression === null || (only && !only.has(id))) continue;
    ordered.push({ column, formula: await compileFormula(expression) });
  }
  if (ordered.length === 0) return null;
  const byName = new Map(columns.map((c) => [c.name, c]));
  return {
    columnIds: new Set(ordered.map((f) => f.column.id)),
    async compute(values) {
      const next = { ...values };
      for (const { column, formula } of ordered) {
        const value = await formulaValue(column, formula, formulaInput(formula, byName, next));
        if (value === "") delete next[column.id];
        else next[column.id] = value;
      }
      return next;
    },
  };
}

/** The fields an expression over the row reads, typed as the columns store them; an empty cell is absent. */
export function formulaInput(formula: CompiledFormula, byName: ReadonlyMap<string, ColumnRecord>, values: RowValues) {
  const input: Record<string, unknown> = {};
  for (const name of formula.names) {
    const column = byName.get(name);
    const text = column ? values[column.id] : undefined;
    if (column && text !== undefined && text !== "") input[name] = typed(column.type, text);
  }
  return input;
}

function typed(type: string, text: string): unknown {
  if (type === "number") {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  if (type === "checkbox") return text === "true";
  return text;
}

/** A formula's result for one row; "" when it fails for this row (a type mismatch, a limit). */
async function formulaValue(column: ColumnRecord, formula: CompiledFormula, input: Record<string, unknown>) {
  let result: unknown;
  try {
    result = await formula.evaluate(input);
  } catch {
    // A row the formula cannot compute has no value; other rows keep theirs.
    return "";
  }
  return cellValueOf(result, column) ?? "";
}
