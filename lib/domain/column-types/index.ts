import type { ColumnType } from "./types.ts";
import { shortText, longText } from "./text.ts";
import { number } from "./number.ts";
import { url } from "./url.ts";
import { email } from "./email.ts";
import { file } from "./file.ts";
import { checkbox } from "./checkbox.ts";
import { date } from "./date.ts";
import { select } from "./select.ts";
import { comparable } from "./compare.ts";

export const COLUMN_TYPES = {
  "short-text": shortText,
  "long-text": longText,
  number,
  url,
  email,
  file,
  checkbox,
  date,
  select,
} as const satisfies Record<string, ColumnType>;

export type ColumnTypeName = keyof typeof COLUMN_TYPES;
export const COLUMN_TYPE_NAMES = Object.keys(COLUMN_TYPES) as ColumnTypeName[];

export function columnType(name: string): ColumnType | undefined {
  // Own keys only: "toString" or "constructor" must not resolve to Object.prototype members.
  return Object.hasOwn(COLUMN_TYPES, name) ? (COLUMN_TYPES as Record<string, ColumnType>)[name] : undefined;
}

/** Whether two values of a column are the same value as its type reads them (see compare.ts). */
export function sameValue(column: { type: string; columnOptions?: unknown }, a: string, b: string): boolean {
  if (a === b) return true;
  const type = columnType(column.type);
  const options = (column.columnOptions ?? {}) as Record<string, unknown>;
  return comparable(type, options, a) === comparable(type, options, b);
}

export type { ColumnType, ColumnOptions } from "./types.ts";
export { date } from "./date.ts";
export { selectOptions } from "./select.ts";
