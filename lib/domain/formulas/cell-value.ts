import { columnType } from "../column-types/index.ts";
import type { ColumnRecord } from "../column-model.ts";
import { MAX_CELL_CHARS } from "../limits.ts";

/**
 * An expression's result (a formula's, or an extraction from a provider's answer) as the text the
 * column stores, normalised by its type as a written value would be. "" when the result is empty
 * (nothing, "", []); null when the column's type refuses it or it is too long.
 */
export function cellValueOf(result: unknown, column: Pick<ColumnRecord, "type" | "columnOptions">): string | null {
  const raw = asCellInput(result);
  if (raw === undefined) return "";
  if (raw === null) return null;
  const normalized = columnType(column.type)?.normalize(raw, (column.columnOptions ?? {}) as Record<string, unknown>);
  return normalized?.ok && normalized.value.length <= MAX_CELL_CHARS ? normalized.value : null;
}

/** undefined: empty; null: not a value at all (a function). */
function asCellInput(result: unknown): string | number | boolean | null | undefined {
  if (result === undefined || result === null || result === "") return undefined;
  if (typeof result === "string" || typeof result === "boolean") return result;
  if (typeof result === "number") return Number.isFinite(result) ? result : null;
  if (Array.isArray(result)) {
    if (result.length === 0) return undefined;
    if (result.every((v) => ["string", "number", "boolean"].includes(typeof v))) return result.join(", ");
  }
  if (typeof result === "function") return null;
  return JSON.stringify(result);
}
