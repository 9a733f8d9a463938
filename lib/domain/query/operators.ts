import { CELL_STATUSES } from "../cells/transitions.ts";

// The operators each column type takes in a filter, and the statuses it can name. Pure data, so
// the browser's filter bar offers exactly what the parser accepts.

export const FILTER_OPS = [
  "eq",
  "neq",
  "contains",
  "notContains",
  "startsWith",
  "gt",
  "gte",
  "lt",
  "lte",
  "in",
  "isEmpty",
  "isNotEmpty",
] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

/** What a column type compares as; it decides the operators and how values are read. */
export type Comparison = "text" | "number" | "date" | "checkbox" | "select";

const COMPARISON_OF: Record<string, Comparison> = {
  number: "number",
  date: "date",
  checkbox: "checkbox",
  select: "select",
};
export const comparisonOf = (column: { type: string }): Comparison => COMPARISON_OF[column.type] ?? "text";

const ALWAYS: FilterOp[] = ["eq", "neq", "in", "isEmpty", "isNotEmpty"];
export const OPS_BY_COMPARISON: Record<Comparison, readonly FilterOp[]> = {
  text: [...ALWAYS, "contains", "notContains", "startsWith"],
  number: [...ALWAYS, "gt", "gte", "lt", "lte"],
  date: [...ALWAYS, "gt", "gte", "lt", "lte"],
  checkbox: ALWAYS,
  select: ALWAYS,
};

/** Operators that take no value. */
export const VALUELESS_OPS: readonly FilterOp[] = ["isEmpty", "isNotEmpty"];

/** Cell statuses a filter can name: the table's, plus idle (no cell yet). A new status is one line there. */
export const FILTERABLE_STATUSES = ["idle", ...CELL_STATUSES] as const;
