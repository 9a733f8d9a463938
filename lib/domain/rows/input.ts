import { z } from "zod";
import { columnType } from "../column-types/index.ts";
import { columnOptionsOf, nameKey, type ColumnRecord } from "../column-model.ts";
import { MAX_CELL_CHARS } from "../limits.ts";

export const MAX_ROWS_PER_REQUEST = 10_000;
export { MAX_CELL_CHARS };

/** A value written into a cell; the column's type validates and normalises it. */
export const cellInputSchema = z
  .unknown()
  .describe(
    'A cell value: text, or a number or boolean, stored as text. "" or null means no value. The column\'s type validates it.',
  );

export const cellsInputSchema = z
  .record(z.string().describe("A column name (matched exactly, then case-insensitively)."), cellInputSchema)
  .describe("Cell values by column name. Columns left out keep their value (Update Rows) or stay empty (Add Rows).");

// Rows of Add Rows and Update Rows are checked one by one, so that every problem is reported
// with its row (all or nothing for Add Rows, a partial answer for Update Rows).

export const newRowSchema = z
  .object({
    cells: cellsInputSchema,
    id: z.never().optional().describe("Not allowed: a new row's id is assigned."),
  })
  .describe("A new row.");

export type NewRow = z.infer<typeof newRowSchema>;

export const rowUpdateSchema = z
  .object({
    id: z.string().max(100).describe("The id (sr_…) of the row to change."),
    cells: cellsInputSchema,
  })
  .describe("The cells to change in one row.");

export type RowUpdate = z.infer<typeof rowUpdateSchema>;

export interface RowShapeProblem {
  code: "invalid_row" | "id_not_allowed";
  message: string;
}

/** A new row, or what is wrong with its shape (the cells are checked against the columns later). */
export function checkNewRow(raw: unknown): NewRow | RowShapeProblem {
  const result = newRowSchema.safeParse(raw);
  if (result.success) return { cells: ownCells(raw) };
  if (result.error.issues.every((i) => i.path[0] === "id")) {
    return { code: "id_not_allowed", message: "New rows must not carry an id; it is assigned." };
  }
  return { code: "invalid_row", message: 'Each row is { "cells": { <column name>: <value> } }.' };
}

/** A row update, or what is wrong with its shape, with its id when it has one. */
export function checkRowUpdate(raw: unknown): RowUpdate | (RowShapeProblem & { rowId: string | null }) {
  const result = rowUpdateSchema.safeParse(raw);
  if (result.success) return { id: result.data.id, cells: ownCells(raw) };
  const id = z.string().safeParse((raw as { id?: unknown } | null)?.id);
  return {
    rowId: id.success ? id.data : null,
    code: "invalid_row",
    message: 'Each row is { "id": "sr_…", "cells": { <column name>: <value> } }.',
  };
}

/**
 * The request's own cells object, once the schema has accepted it: zod copies records into new
 * objects, where a column named "__proto__" would be lost.
 */
const ownCells = (row: unknown) => (row as { cells: Record<string, unknown> }).cells;

export interface CellProblem {
  column: string;
  code: "unknown_column" | "invalid_value" | "value_too_long";
  message: string;
}

export class ColumnIndex {
  private byName = new Map<string, ColumnRecord>();
  private byKey = new Map<string, ColumnRecord>();

  readonly columns: readonly ColumnRecord[];
  constructor(columns: readonly ColumnRecord[]) {
    this.columns = columns;
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
export function normalizeCells(index: ColumnIndex, cells: Readonly<Record<string, unknown>>) {
  const values = new Map<string, string>();
  const problems: CellProblem[] = [];
  for (const [name, raw] of Object.entries(cells)) {
    const column = index.find(name);
    if (!column) {
      problems.push({ column: name, code: "unknown_column", message: `No column is named "${name}".` });
      continue;
    }
    if (column.fill) {
      problems.push({
        column: column.name,
        code: "invalid_value",
        message: `${column.name} is a formula column: its value is computed from the row.`,
      });
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
      problems.push({
        column: column.name,
        code: "value_too_long",
        message: `${column.name}: a cell value is at most 100,000 characters.`,
      });
    } else {
      values.set(column.id, result.value);
    }
  }
  return { values, problems };
}
