import { isGenerated } from "../fill/kinds.ts";
import { appError } from "../../errors.ts";
import { columnOptionsOf, nameKey, reviewThresholdOf, type ColumnRecord } from "../column-model.ts";
import { columnType, selectOptions } from "../column-types/index.ts";
import {
  FILTER_OPS,
  FILTERABLE_STATUSES,
  OPS_BY_COMPARISON,
  comparisonOf,
  type Comparison,
  type FilterOp,
} from "./operators.ts";

// The filter grammar of Query Rows and views, parsed into a checked tree. Everything a client can
// get wrong is caught here, with the path to the bad node, before any SQL is built.

export {
  FILTER_OPS,
  FILTERABLE_STATUSES,
  OPS_BY_COMPARISON,
  comparisonOf,
  type Comparison,
  type FilterOp,
} from "./operators.ts";

const CONFIDENCE_OPS = ["lt", "lte", "gt", "gte"] as const;
type ConfidenceOp = (typeof CONFIDENCE_OPS)[number];

export const FILTER_LIMITS = { depth: 8, nodes: 200, inValues: 500, valueChars: 1_000 } as const;

export type ValueCondition = {
  kind: "value";
  column: ColumnRecord;
  comparison: Comparison;
  op: FilterOp;
  values: string[];
};
export type StateCondition =
  | { kind: "status"; column: ColumnRecord; status: string }
  | { kind: "confidence"; column: ColumnRecord; op: ConfidenceOp; value: number }
  | { kind: "changedSince"; column: ColumnRecord; since: Date }
  | {
      kind: "flag";
      column: ColumnRecord;
      flag: "needsReview" | "verified" | "stale";
      value: boolean;
      threshold: number;
    };
export type FilterNode =
  | { kind: "and" | "or"; children: FilterNode[] }
  | { kind: "not"; child: FilterNode }
  | ValueCondition
  | StateCondition;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A column named by id, or by name (case-insensitively, as names are unique that way). */
export function resolveColumn(columns: readonly ColumnRecord[], ref: string, path: string): ColumnRecord {
  const hit = columns.find((c) => c.id === ref) ?? columns.find((c) => c.nameKey === nameKey(ref));
  if (!hit) throw appError("unknown_column", `No column "${ref}" in this base (at ${path}).`, { path, column: ref });
  return hit;
}

const bad = (path: string, message: string) => appError("invalid_filter", `${message} (at ${path}).`, { path });

/** Parses a raw filter tree against the base's columns; throws invalid_filter or unknown_column. */
export function parseFilter(raw: unknown, columns: readonly ColumnRecord[], root = "filter"): FilterNode {
  let count = 0;
  const walk = (node: unknown, path: string, depth: number): FilterNode => {
    if (++count > FILTER_LIMITS.nodes) throw bad(path, `A filter has at most ${FILTER_LIMITS.nodes} nodes`);
    if (depth > FILTER_LIMITS.depth) throw bad(path, `A filter is at most ${FILTER_LIMITS.depth} levels deep`);
    if (!isObject(node)) throw bad(path, "A filter node is an object: and, or, not or a condition");
    for (const kind of ["and", "or"] as const) {
      if (kind in node) {
        if (Object.keys(node).length !== 1) throw bad(path, `"${kind}" stands alone in its node`);
        const list = node[kind];
        if (!Array.isArray(list) || list.length === 0) throw bad(path, `"${kind}" takes a non-empty list of nodes`);
        return { kind, children: list.map((child, i) => walk(child, `${path}.${kind}[${i}]`, depth + 1)) };
      }
    }
    if ("not" in node) {
      if (Object.keys(node).length !== 1) throw bad(path, `"not" stands alone in its node`);
      return { kind: "not", child: walk(node.not, `${path}.not`, depth + 1) };
    }
    return parseCondition(node, columns, path);
  };
  return walk(raw, root, 1);
}

// A date, optionally with a time and a zone: what Date parses the same everywhere.
const ISO_TIME = /^\d{4}-\d\d-\d\d(?:T\d\d:\d\d(?::\d\d(?:\.\d{1,3})?)?(?:Z|[+-]\d\d:\d\d)?)?$/;

const STATE_KEYS = ["status", "confidence", "needsReview", "verified", "stale", "changedSince"] as const;

function parseCondition(node: Record<string, unknown>, columns: readonly ColumnRecord[], path: string): FilterNode {
  if (typeof node.column !== "string" || node.column === "")
    throw bad(path, 'A condition names its "column" (a name or an id)');
  const column = resolveColumn(columns, node.column, `${path}.column`);
  const state = STATE_KEYS.filter((k) => k in node);
  const extra = Object.keys(node).filter((k) => !["column", "op", "value", ...STATE_KEYS].includes(k));
  if (extra.length > 0) throw bad(path, `Unknown field "${extra[0]}" in a condition`);
  if (state.length + ("op" in node ? 1 : 0) !== 1)
    throw bad(
      path,
      'A condition has exactly one of "op", "status", "confidence", "needsReview", "verified", "stale" or "changedSince"',
    );
  if (state.length === 1) return parseStateCondition(node, column, state[0], path);
  return parseValueCondition(node, column, path);
}

function parseStateCondition(
  node: Record<string, unknown>,
  column: ColumnRecord,
  key: (typeof STATE_KEYS)[number],
  path: string,
): StateCondition {
  if (!isGenerated(column))
    throw bad(
      `${path}.${key}`,
      `"${key}" applies to generated columns only (AI, HTTP, waterfall), and "${column.name}" is not one`,
    );
  if ("value" in node) throw bad(path, `A "${key}" condition takes no "value"`);
  const v = node[key];
  if (key === "status") {
    if (typeof v !== "string" || !(FILTERABLE_STATUSES as readonly string[]).includes(v)) {
      throw bad(`${path}.status`, `status is one of ${FILTERABLE_STATUSES.join(", ")}`);
    }
    return { kind: "status", column, status: v };
  }
  if (key === "confidence") {
    const ops = isObject(v) ? Object.keys(v) : [];
    const op = ops[0] as ConfidenceOp;
    const n = isObject(v) ? v[op] : undefined;
    if (ops.length !== 1 || !CONFIDENCE_OPS.includes(op) || typeof n !== "number" || !Number.isFinite(n)) {
      throw bad(`${path}.confidence`, 'confidence is { "lt" | "lte" | "gt" | "gte": <number> }');
    }
    return { kind: "confidence", column, op, value: n };
  }
  if (key === "changedSince") {
    const since = typeof v === "string" && ISO_TIME.test(v) ? new Date(v) : null;
    if (!since || Number.isNaN(since.getTime()))
      throw bad(`${path}.changedSince`, "changedSince is an ISO 8601 date or date-time, e.g. 2026-11-01T00:00:00Z");
    return { kind: "changedSince", column, since };
  }
  if (typeof v !== "boolean") throw bad(`${path}.${key}`, `${key} is true or false`);
  return { kind: "flag", column, flag: key, value: v, threshold: reviewThresholdOf(column) };
}

function parseValueCondition(node: Record<string, unknown>, column: ColumnRecord, path: string): ValueCondition {
  const op = node.op as FilterOp;
  if (!FILTER_OPS.includes(op)) throw bad(`${path}.op`, `op is one of ${FILTER_OPS.join(", ")}`);
  const comparison = comparisonOf(column);
  if (!OPS_BY_COMPARISON[comparison].includes(op)) {
    throw bad(`${path}.op`, `A ${column.type} column takes ${OPS_BY_COMPARISON[comparison].join(", ")}, not ${op}`);
  }
  if (op === "isEmpty" || op === "isNotEmpty") {
    if ("value" in node) throw bad(path, `${op} takes no "value"`);
    return { kind: "value", column, comparison, op, values: [] };
  }
  if (op === "in") {
    const list = node.value;
    if (!Array.isArray(list) || list.length === 0 || list.length > FILTER_LIMITS.inValues) {
      throw bad(`${path}.value`, `"in" takes a list of 1 to ${FILTER_LIMITS.inValues} values`);
    }
    return {
      kind: "value",
      column,
      comparison,
      op,
      values: list.map((v, i) => operand(column, comparison, v, `${path}.value[${i}]`)),
    };
  }
  if (!("value" in node)) throw bad(path, `${op} needs a "value"`);
  return { kind: "value", column, comparison, op, values: [operand(column, comparison, node.value, `${path}.value`)] };
}

/** A comparison value, normalised the way the column stores its values. */
function operand(column: ColumnRecord, comparison: Comparison, v: unknown, path: string): string {
  if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean")
    throw bad(path, "A value is a string, a number or a boolean");
  const text = String(v);
  if (text.length > FILTER_LIMITS.valueChars)
    throw bad(path, `A value is at most ${FILTER_LIMITS.valueChars} characters`);
  if (comparison === "text") return text;
  if (comparison === "select") {
    const match = selectOptions(columnOptionsOf(column)).find((o) => o.toLowerCase() === text.trim().toLowerCase());
    if (!match) throw bad(path, `"${text}" is not an option of "${column.name}"`);
    return match;
  }
  const n = columnType(column.type)!.normalize(v, columnOptionsOf(column));
  if (!n.ok) throw bad(path, `${n.message} "${column.name}" is a ${column.type} column`);
  return n.value;
}
