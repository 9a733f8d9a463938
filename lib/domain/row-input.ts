import { columnType } from "./column-types/index.ts";
import { columnOptionsOf, nameKey, type ColumnRecord } from "./column-model.ts";

export const MAX_ROWS_PER_REQUEST = 10_000;
export const MAX_CELL_CHARS = 100_000;

export interface CellProblem {
  column: string;
  code: "unknown_column" | "invalid_value" | "value_too_long";
  message: string;
}

export class ColumnIndex {
  private byName = new Map<string, ColumnRecord>();
  private byKey = new Map<string, ColumnRecord>();

  constructor(readonly columns: readonly ColumnRecord[]) {
    for (const c of columns) {
      this.byName.set(c.name, c);
      this.byKey.set(c.nameKey, c);
    }
  }

  /** Cells are keyed by column name; an exact match wins, then a case-insensitive one. */
  find(name: string): ColumnRecord | undefined {
    return this.byName.get(name) ?? this.byKey.get(nameKey(name));
  }
}

/**
 * Validates and normalises one row's cells. Returns the values by column id, or the problems.
 * "" (and null) always means "no value".
 */
export function normalizeCells(index: ColumnIndex, cells: Record<string, unknown>) {
  const values = new Map<string, string>();
  const problems: CellProblem[] = [];
  for (const [name, raw] of Object.entries(cells)) {
    const column = index.find(name);
    if (!column) {
      problems.push({ column: name, code: "unknown_column", message: `No column is named "${name}".` });
      continue;
    }
    if (raw === "" || raw === null) {
      values.set(column.id, "");
      continue;
    }
    const result = columnType(column.type)!.normalize(raw, columnOptionsOf(column));
    if (!result.ok) {
      problems.push({ column: column.name, code: "invalid_value", message: `${column.name}: ${result.message}` });
    } else if (result.value.length > MAX_CELL_CHARS) {
      problems.push({ column: column.name, code: "value_too_long", message: `${column.name}: a cell value is at most 100,000 characters.` });
    } else {
      values.set(column.id, result.value);
    }
  }
  return { values, problems };
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
