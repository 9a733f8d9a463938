import { appError } from "../../errors.ts";
import type { ColumnRecord } from "../../domain/column-model.ts";
import { compileFormula } from "../../domain/formulas/compile.ts";
import { cellValueOf } from "../../domain/formulas/cell-value.ts";

// An HTTP column's extra outputs read from a found answer: each value typed as its column stores
// it. An output the answer leaves empty, or whose value its column cannot hold, is not written (the
// row keeps what it had) and is named in the cell's details; a broken expression fails the cell
// as a broken extract would.

export interface ReadOutputs {
  /** Column id → value, for the columns written. */
  values: Record<string, string>;
  /** Outputs left unwritten, and why. */
  notes: string[];
}

export async function readOutputs(
  outputs: Readonly<Record<string, string>>,
  json: unknown,
  columns: readonly Pick<ColumnRecord, "id" | "name" | "type" | "columnOptions">[],
  host: string,
): Promise<ReadOutputs> {
  const read: ReadOutputs = { values: {}, notes: [] };
  for (const [name, expression] of Object.entries(outputs)) {
    const column = columns.find((c) => c.name === name);
    if (!column) continue;
    let result: unknown;
    try {
      result = await (await compileFormula(expression)).evaluate(json);
    } catch (e) {
      throw appError(
        "provider_invalid_answer",
        `Reading output "${name}" from ${host}'s answer failed: ${(e as Error).message}.`,
        {
          retryable: false,
        },
      );
    }
    const value = cellValueOf(result, column);
    if (value === null) read.notes.push(`${name}: the value does not fit a ${column.type} column`);
    else if (value === "") read.notes.push(`${name}: no value in the answer`);
    else read.values[column.id] = value;
  }
  return read;
}
