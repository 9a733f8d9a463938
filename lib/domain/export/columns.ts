import { isGenerated } from "../fill/kinds.ts";
import { appError } from "../../errors.ts";
import type { CellMetadata, CellState } from "../cell-view.ts";
import type { ColumnRecord } from "../column-model.ts";
import { resolveColumn } from "../query/index.ts";
import { sqlId } from "../query/index.ts";
import type { RowValues } from "../rows/index.ts";

// What an export writes, column by column: the header, the kind of value (which decides how each
// format types it and whether the formula guard applies) and how to read it from a row.

/** text: guarded free text; number/date/checkbox: typed in XLSX, never guarded; list: sources. */
export type ExportKind = "text" | "number" | "date" | "checkbox" | "list";
export type ExportValue = string | number | boolean | string[] | null;

export interface ExportRow {
  id: string;
  values: RowValues;
  /** The cells' states, read only when metadata columns are asked for. */
  states?: ReadonlyMap<string, CellState>;
}

export interface ExportColumn {
  header: string;
  kind: ExportKind;
  read(row: ExportRow): ExportValue;
  /** The same value as SQL text over row `r`, for columns the database can format itself. */
  sql?: string;
}

export const ROW_ID_HEADER = "Row ID";

/** Whether the database can format every column itself (no metadata columns, which need the cells). */
export const sqlFormattable = (columns: readonly ExportColumn[]) => columns.every((c) => c.sql !== undefined);

const KIND_OF_TYPE: Record<string, ExportKind> = { number: "number", date: "date", checkbox: "checkbox" };

const metaOf = (row: ExportRow, columnId: string) =>
  (row.states?.get(columnId)?.metadata ?? {}) as Partial<CellMetadata>;

function metadataColumns(c: ColumnRecord): ExportColumn[] {
  return [
    { header: `${c.name} (confidence)`, kind: "number", read: (r) => metaOf(r, c.id).confidenceScore ?? null },
    { header: `${c.name} (sources)`, kind: "list", read: (r) => metaOf(r, c.id).sources ?? [] },
    { header: `${c.name} (status)`, kind: "text", read: (r) => r.states?.get(c.id)?.status ?? "idle" },
    { header: `${c.name} (verified)`, kind: "checkbox", read: (r) => Boolean(r.states?.get(c.id)?.verified) },
  ];
}

/** `columns=` as given: a JSON array of names or ids, or a comma-separated list. */
function columnRefs(text: string): string[] {
  if (text.trimStart().startsWith("[")) {
    let list: unknown;
    try {
      list = JSON.parse(text);
    } catch {
      throw appError("invalid_query", "columns is a comma-separated list, or a JSON array of column names or ids.");
    }
    if (!Array.isArray(list) || !list.every((v) => typeof v === "string"))
      throw appError("invalid_query", "columns, as JSON, is an array of column names or ids.");
    return list;
  }
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

export interface ColumnChoice {
  /** `columns=` text; otherwise every column the view shows (all of them without a view). */
  columns?: string;
  hiddenColumnIds?: readonly string[];
  metadata: boolean;
  ids: boolean;
}

/** The base's columns chosen and ordered for an export; unknown_column for a name the base lacks. */
export function exportColumns(all: readonly ColumnRecord[], choice: ColumnChoice): ExportColumn[] {
  let chosen: ColumnRecord[];
  if (choice.columns !== undefined) {
    const refs = columnRefs(choice.columns);
    if (refs.length === 0) throw appError("invalid_query", "columns names at least one column.");
    chosen = refs.map((ref) => resolveColumn(all, ref, "columns"));
    if (new Set(chosen.map((c) => c.id)).size !== chosen.length)
      throw appError("invalid_query", "columns names a column twice.");
  } else {
    const hidden = new Set(choice.hiddenColumnIds ?? []);
    chosen = all.filter((c) => !hidden.has(c.id));
  }
  const out: ExportColumn[] = choice.ids
    ? [{ header: ROW_ID_HEADER, kind: "text", read: (r) => r.id, sql: "r.id" }]
    : [];
  for (const c of chosen) {
    out.push({
      header: c.name,
      kind: KIND_OF_TYPE[c.type] ?? "text",
      read: (r) => r.values[c.id] ?? "",
      sql: `COALESCE(r."values"->>${sqlId(c.id)}, '')`,
    });
    if (choice.metadata && isGenerated(c)) out.push(...metadataColumns(c));
  }
  return out;
}
