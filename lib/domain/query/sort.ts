import { createHash } from "node:crypto";
import { appError } from "../../errors.ts";
import { textProblem } from "../../text.ts";
import { columnOptionsOf, type ColumnRecord } from "../column-model.ts";
import { date, selectOptions } from "../column-types/index.ts";
import { comparisonOf, resolveColumn } from "./filter.ts";
import { dateValue, foldedText, numberValue, rawValue, type Params } from "./sql.ts";

// Typed, stable sorting with empty values last, and keyset cursors over it: a cursor holds the
// sort keys of the last row served, so rows added, changed or deleted meanwhile never make a page
// repeat or skip a row that kept its place.

export const MAX_SORT_KEYS = 5;

export interface SortKey {
  column: ColumnRecord;
  direction: "asc" | "desc";
}

type KeyType = "numeric" | "text" | "int";
interface KeyExpr {
  sql: string;
  type: KeyType;
  direction: "asc" | "desc";
  /** Whether a cursor's key (its text form, as the select list gives it) is a value this key can hold. */
  fits: (key: string) => boolean;
}

// A key in a cursor is compared with the column's typed expression, so one that cannot be that
// type (crafted: "abc" on a number sort) would fail the cast in the database. Each is checked
// against the text the database gives for the type: numeric::text is plain decimal notation,
// array_position an int, a date the date type's own normal form (values are stored normalised).
const NUMERIC_TEXT = /^-?\d{1,1000}(\.\d{1,1000})?$/;
const INT_TEXT = /^-?\d{1,9}$/;
const anyText = () => true;
const normalDate = (key: string) => {
  const d = date.normalize(key);
  return d.ok && d.value === key;
};
/** The largest seq (bigint) a cursor may hold. */
const MAX_SEQ = 2n ** 63n - 1n;

export function parseSort(raw: unknown, columns: readonly ColumnRecord[], root = "sort"): SortKey[] {
  if (!Array.isArray(raw))
    throw appError("invalid_query", `${root} is a list of { column, direction }.`, { path: root });
  if (raw.length > MAX_SORT_KEYS)
    throw appError("invalid_query", `At most ${MAX_SORT_KEYS} sort keys.`, { path: root });
  return raw.map((k, i) => {
    const path = `${root}[${i}]`;
    const ok =
      typeof k === "object" &&
      k !== null &&
      typeof k.column === "string" &&
      [undefined, "asc", "desc"].includes(k.direction);
    if (!ok)
      throw appError("invalid_query", `${path} is { "column": <name or id>, "direction": "asc" | "desc" }.`, { path });
    return { column: resolveColumn(columns, k.column, `${path}.column`), direction: k.direction ?? "asc" };
  });
}

/** The GET form: `-Employees,Company` (a leading minus sorts descending). */
export function sortFromQueryText(text: string): { column: string; direction: "asc" | "desc" }[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) =>
      s.startsWith("-")
        ? { column: s.slice(1), direction: "desc" as const }
        : { column: s.replace(/^\+/, ""), direction: "asc" as const },
    );
}

function keyExpr(k: SortKey, p: Params): KeyExpr {
  switch (comparisonOf(k.column)) {
    case "number":
      return {
        sql: numberValue(k.column),
        type: "numeric",
        direction: k.direction,
        fits: (key) => NUMERIC_TEXT.test(key),
      };
    case "select":
      // By the order of the options, as the column defines them.
      return {
        sql: `array_position(${p.add(selectOptions(columnOptionsOf(k.column)))}::text[], ${rawValue(k.column)})`,
        type: "int",
        direction: k.direction,
        fits: (key) => INT_TEXT.test(key),
      };
    case "text":
      return {
        sql: `${foldedText(rawValue(k.column))} COLLATE "C"`,
        type: "text",
        direction: k.direction,
        fits: anyText,
      };
    case "date":
      return { sql: dateValue(k.column), type: "text", direction: k.direction, fits: normalDate };
    default:
      return { sql: `${rawValue(k.column)} COLLATE "C"`, type: "text", direction: k.direction, fits: anyText };
  }
}

export interface CompiledSort {
  /** Select list entries k0, k1, … holding each key as text, for the next cursor. */
  select: string;
  orderBy: string;
  /** Rows strictly after a cursor. */
  after(cursor: Cursor, p: Params): string;
  /** A fingerprint of the sort, so a cursor is only used with the sort that made it. */
  fingerprint: string;
}

export function compileSort(keys: readonly SortKey[], p: Params): CompiledSort {
  const exprs = keys.map((k) => keyExpr(k, p));
  const fingerprint = createHash("sha256")
    .update(JSON.stringify(keys.map((k) => [k.column.id, k.column.type, k.direction])))
    .digest("base64url")
    .slice(0, 12);
  return {
    select: exprs.map((e, i) => `, (${e.sql})::text AS k${i}`).join(""),
    orderBy: [...exprs.map((e) => `${e.sql} ${e.direction === "desc" ? "DESC" : "ASC"} NULLS LAST`), "r.seq ASC"].join(
      ", ",
    ),
    fingerprint,
    after(cursor, params) {
      if (cursor.fingerprint !== fingerprint || cursor.keys.length !== exprs.length) {
        throw appError(
          "invalid_cursor",
          "This cursor belongs to a query with another sort; start again without a cursor.",
        );
      }
      if (cursor.keys.some((v, i) => v !== null && !exprs[i].fits(v))) throw appError("invalid_cursor");
      // Lexicographic "after" over (k0, k1, …, seq), with empty values last in either direction.
      let cond = `r.seq > ${params.add(cursor.seq.toString())}::bigint`;
      for (let i = exprs.length - 1; i >= 0; i--) {
        const e = exprs[i];
        const v = cursor.keys[i];
        if (v === null) {
          cond = `((${e.sql}) IS NULL AND ${cond})`;
          continue;
        }
        const param = `${params.add(v)}::${e.type}`;
        const beyond = `(${e.sql}) ${e.direction === "desc" ? "<" : ">"} ${param}`;
        cond = `((${e.sql}) IS NULL OR ${beyond} OR ((${e.sql}) = ${param} AND ${cond}))`;
      }
      return cond;
    },
  };
}

export interface Cursor {
  fingerprint: string;
  keys: (string | null)[];
  seq: bigint;
}

export function encodeQueryCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify({ f: c.fingerprint, k: c.keys, s: c.seq.toString() })).toString("base64url");
}

export function decodeQueryCursor(text: string): Cursor {
  try {
    const o = JSON.parse(Buffer.from(text, "base64url").toString());
    const okKeys =
      Array.isArray(o.k) &&
      o.k.length <= MAX_SORT_KEYS &&
      o.k.every((k: unknown) => k === null || (typeof k === "string" && k.length <= 2_000 && !textProblem(k)));
    if (
      typeof o.f === "string" &&
      okKeys &&
      typeof o.s === "string" &&
      /^\d{1,19}$/.test(o.s) &&
      BigInt(o.s) <= MAX_SEQ
    )
      return { fingerprint: o.f, keys: o.k, seq: BigInt(o.s) };
  } catch {
    // answered below
  }
  throw appError("invalid_cursor", "cursor is not a cursor this API returned.");
}
