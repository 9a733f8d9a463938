import { isGenerated } from "@/lib/domain/fill/kinds.ts";
import {
  comparisonOf,
  FILTERABLE_STATUSES,
  OPS_BY_COMPARISON,
  VALUELESS_OPS,
  type Comparison,
} from "@/lib/domain/query/operators.ts";
import type { ColumnView } from "../../data/types";
import type { Condition, ConditionValue } from "./query-state";

// The filter bar's operators: the value comparisons a column's type takes (the same table the
// server parses with), and for AI columns the cell-state predicates. Each choice knows how to
// build its condition and how to read one back.

export interface OperatorChoice {
  id: string;
  label: string;
  /** What the value input is: none, or a kind of input. */
  input: "none" | "text" | "number" | "date" | "boolean" | "option" | "list" | "percent" | "status";
  build: (column: string, value: string) => Condition;
}

const OP_LABELS: Record<string, string> = {
  eq: "is",
  neq: "is not",
  contains: "contains",
  notContains: "does not contain",
  startsWith: "starts with",
  gt: ">",
  gte: "≥",
  lt: "<",
  lte: "≤",
  in: "is any of",
  isEmpty: "is empty",
  isNotEmpty: "is not empty",
};

const INPUT_OF: Record<Comparison, OperatorChoice["input"]> = {
  text: "text",
  number: "number",
  date: "date",
  checkbox: "boolean",
  select: "option",
};

function typedValue(comparison: Comparison, raw: string): ConditionValue {
  if (comparison === "number") return Number(raw);
  if (comparison === "checkbox") return raw === "true";
  return raw;
}

export const STATUS_CHOICES = FILTERABLE_STATUSES;

const STATE_CHOICES: OperatorChoice[] = [
  { id: "needsReview", label: "needs review", input: "none", build: (column) => ({ column, needsReview: true }) },
  { id: "verified", label: "is verified", input: "none", build: (column) => ({ column, verified: true }) },
  { id: "notVerified", label: "is not verified", input: "none", build: (column) => ({ column, verified: false }) },
  { id: "stale", label: "is out of date", input: "none", build: (column) => ({ column, stale: true }) },
  { id: "status", label: "status is", input: "status", build: (column, v) => ({ column, status: v }) },
  {
    id: "confidenceLt",
    label: "confidence below",
    input: "percent",
    build: (column, v) => ({ column, confidence: { lt: Number(v) / 100 } }),
  },
  {
    id: "confidenceGte",
    label: "confidence at least",
    input: "percent",
    build: (column, v) => ({ column, confidence: { gte: Number(v) / 100 } }),
  },
];

export function operatorChoices(column: ColumnView): OperatorChoice[] {
  const comparison = comparisonOf(column);
  const values: OperatorChoice[] = OPS_BY_COMPARISON[comparison].map((op) => ({
    id: op,
    label: OP_LABELS[op],
    input: VALUELESS_OPS.includes(op) ? "none" : op === "in" ? "list" : INPUT_OF[comparison],
    build: (col, v) => {
      if (VALUELESS_OPS.includes(op)) return { column: col, op };
      if (op === "in")
        return {
          column: col,
          op,
          value: v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
        };
      return { column: col, op, value: typedValue(comparison, v) };
    },
  }));
  return isGenerated(column) ? [...values, ...STATE_CHOICES] : values;
}

/** The choice and the value text a condition was built from (for editing it again). */
export function choiceOf(c: Condition): { id: string; value: string } {
  if (c.op)
    return {
      id: c.op,
      value: Array.isArray(c.value) ? c.value.join(", ") : c.value === undefined ? "" : String(c.value),
    };
  if (c.needsReview !== undefined) return { id: "needsReview", value: "" };
  if (c.verified !== undefined) return { id: c.verified ? "verified" : "notVerified", value: "" };
  if (c.stale !== undefined) return { id: "stale", value: "" };
  if (c.status !== undefined) return { id: "status", value: c.status };
  if (c.confidence?.lt !== undefined) return { id: "confidenceLt", value: String(Math.round(c.confidence.lt * 100)) };
  if (c.confidence?.gte !== undefined)
    return { id: "confidenceGte", value: String(Math.round(c.confidence.gte * 100)) };
  return { id: "eq", value: "" };
}

/** "Employees ≥ 50", "Summary needs review". */
export function describeCondition(c: Condition, columns: readonly ColumnView[]): string {
  const name = columns.find((col) => col.id === c.column || col.name === c.column)?.name ?? c.column;
  const { id, value } = choiceOf(c);
  const label = OP_LABELS[id] ?? STATE_CHOICES.find((s) => s.id === id)?.label ?? id;
  if (id === "confidenceLt" || id === "confidenceGte") return `${name} ${label} ${value}%`;
  if (c.op === "eq" && typeof c.value === "boolean") return `${name} is ${c.value ? "checked" : "unchecked"}`;
  return value ? `${name} ${label} ${value}` : `${name} ${label}`;
}
