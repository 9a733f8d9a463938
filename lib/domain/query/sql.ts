import type { ColumnRecord } from "../column-model.ts";
import type { FilterNode, StateCondition, ValueCondition } from "./filter.ts";

// Filter trees and searches as SQL over `rows r`. Values always travel as parameters; column and
// sheet ids are written into the text (checked to be plain ids), because an expression index only
// serves a query whose expression is spelled the same way.

export class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/**
 * Parameters written into the text as literals, for statements that take none (COPY). Each is
 * the text the driver would send for it, so the explicit casts after each one read it alike.
 */
export class LiteralParams extends Params {
  add(v: unknown): string {
    super.add(v);
    return sqlLiteral(v);
  }
}

// E'' strings read backslashes as escapes whatever standard_conforming_strings says: doubling
// them and the quotes leaves nothing that can end the literal.
const escapedString = (s: string) => `E'${s.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;

function literalText(v: unknown): string {
  if (typeof v === "string") return v;
  if ((typeof v === "number" && Number.isFinite(v)) || typeof v === "bigint" || typeof v === "boolean")
    return String(v);
  throw new Error(`no literal for a parameter of type ${typeof v}`);
}

/** A parameter as a literal: text as itself, an array in PostgreSQL's array syntax (as node-postgres sends it). */
export function sqlLiteral(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  if (!Array.isArray(v)) return escapedString(literalText(v));
  const items = v.map((x) =>
    x === null || x === undefined ? "NULL" : `"${literalText(x).replace(/[\\"]/g, (ch) => `\\${ch}`)}"`,
  );
  return escapedString(`{${items.join(",")}}`);
}

const ID = /^[A-Za-z0-9_]{1,64}$/;
export function sqlId(id: string): string {
  if (!ID.test(id)) throw new Error(`not a plain id: ${id}`);
  return `'${id}'`;
}

/** The stored text of a column in row `r`; NULL when empty. */
export const rawValue = (column: Pick<ColumnRecord, "id">) => `NULLIF(r."values"->>${sqlId(column.id)}, '')`;
/** Text compared case-insensitively after Unicode normalisation. */
export const foldedText = (sql: string) => `lower(normalize(${sql}, NFC))`;
/** A date column's value: ISO 8601 text in UTC, so byte order ("C") is time order. */
export const dateValue = (column: Pick<ColumnRecord, "id">) => `(${rawValue(column)} COLLATE "C")`;
/** The typed value of a number column (values are stored normalised, so the cast cannot fail). */
export const numberValue = (column: Pick<ColumnRecord, "id">) => `(${rawValue(column)})::numeric`;

export function compileFilter(node: FilterNode, p: Params): string {
  switch (node.kind) {
    case "and":
    case "or":
      return `(${node.children.map((c) => compileFilter(c, p)).join(node.kind === "and" ? " AND " : " OR ")})`;
    case "not":
      return `(NOT ${compileFilter(node.child, p)})`;
    case "value":
      // COALESCE: an empty cell makes a comparison NULL, and NOT NULL would be NULL too.
      return `COALESCE(${valueCondition(node, p)}, false)`;
    default:
      return stateCondition(node, p);
  }
}

function valueCondition(c: ValueCondition, p: Params): string {
  const raw = rawValue(c.column);
  if (c.op === "isEmpty") return `(${raw} IS NULL)`;
  if (c.op === "isNotEmpty") return `(${raw} IS NOT NULL)`;
  if (c.op === "neq") return `(NOT COALESCE(${valueCondition({ ...c, op: "eq" }, p)}, false))`;
  if (c.op === "notContains") return `(NOT COALESCE(${valueCondition({ ...c, op: "contains" }, p)}, false))`;
  const [value] = c.values;
  switch (c.comparison) {
    case "number": {
      const v = numberValue(c.column);
      if (c.op === "in") return `(${v} = ANY(${p.add(c.values)}::numeric[]))`;
      return `(${v} ${SQL_OP[c.op]} ${p.add(value)}::numeric)`;
    }
    case "date": {
      const v = dateValue(c.column);
      if (c.op === "in") return `(${v} = ANY(${p.add(c.values)}::text[]))`;
      return `(${v} ${SQL_OP[c.op]} ${p.add(value)}::text)`;
    }
    case "select":
      if (c.op === "in") return `(${raw} = ANY(${p.add(c.values)}::text[]))`;
      return `(${raw} ${SQL_OP[c.op]} ${p.add(value)}::text)`;
    case "checkbox": {
      // An unset checkbox is unchecked.
      const v = `COALESCE(${raw}, 'false')`;
      return c.op === "in" ? `(${v} = ANY(${p.add(c.values)}::text[]))` : `(${v} = ${p.add(value)}::text)`;
    }
    case "text": {
      const v = foldedText(raw);
      if (c.op === "in")
        return `(${v} = ANY(ARRAY(SELECT ${foldedText("x")} FROM unnest(${p.add(c.values)}::text[]) AS x)))`;
      const param = p.add(value);
      const needle = foldedText(`${param}::text`);
      // A cell's folded text is part of its row's search text: the trigram index narrows the rows
      // first, and the exact test on the cell runs only on those.
      const indexed = rowTextContains(value, p);
      if (c.op === "contains") return `(${indexed} AND strpos(${v}, ${needle}) > 0)`;
      if (c.op === "startsWith") return `(${indexed} AND starts_with(${v}, ${needle}))`;
      return `(${indexed} AND ${v} = ${needle})`;
    }
  }
}

const SQL_OP: Record<string, string> = { eq: "=", gt: ">", gte: ">=", lt: "<", lte: "<=" };

/** SQL: cell `c` of the column needs review (threshold written in: it is the column's own number). */
export function needsReviewSql(c: string, threshold: number): string {
  return `(${c}.stale OR (NOT ${c}.verified AND (${c}.status = 'error'
    OR (${c}.status = 'done' AND (${c}.metadata->>'confidenceScore')::float8 < ${Number(threshold)}))))`;
}

function stateCondition(s: StateCondition, p: Params): string {
  const cell = (cond: string) =>
    `EXISTS (SELECT 1 FROM cells c WHERE c.row_id = r.id AND c.column_id = ${sqlId(s.column.id)} AND ${cond})`;
  if (s.kind === "status") {
    if (s.status === "idle")
      return `(NOT EXISTS (SELECT 1 FROM cells c WHERE c.row_id = r.id AND c.column_id = ${sqlId(s.column.id)}))`;
    return cell(`c.status = ${p.add(s.status)}::text`);
  }
  if (s.kind === "changedSince") return cell(`c.changed_at >= ${p.add(s.since.toISOString())}::timestamptz`);
  if (s.kind === "confidence")
    return cell(`(c.metadata->>'confidenceScore')::float8 ${SQL_OP[s.op]} ${p.add(s.value)}::float8`);
  const test = s.flag === "needsReview" ? needsReviewSql("c", s.threshold) : `c.${s.flag}`;
  return s.value ? cell(test) : `(NOT ${cell(test)})`;
}

/** The row's search text (rows.search_text, folded) contains `term`: served by the trigram index. */
function rowTextContains(term: string, p: Params): string {
  const escaped = term.replace(/[\\%_]/g, (ch) => `\\${ch}`);
  return `r.search_text LIKE '%' || ${foldedText(`${p.add(escaped)}::text`)} || '%'`;
}

/** Search: a case-insensitive substring of any cell of the row. */
export const searchSql = (term: string, p: Params) => `(${rowTextContains(term, p)})`;

/** A search term as matched: control characters (the cell separator among them) dropped. */
export const cleanSearch = (term: string) => term.replace(/[\u0000-\u001f]/g, "").slice(0, 500);
