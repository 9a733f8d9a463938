import type { CopyOut } from "../../db/copy-out.ts";
import type { Tx } from "../../db/database.ts";
import { prepareRowsQuery, queryFromGet } from "../rows/index.ts";
import { exportColumns, sqlFormattable } from "./columns.ts";
import { csvChunks } from "./csv.ts";
import { csvCopyChunks, csvLineChunks } from "./csv-lines.ts";
import { jsonlChunks, jsonlCopyChunks, jsonlLineChunks } from "./jsonl.ts";
import { exportPages } from "./pages.ts";
import { xlsxChunks } from "./xlsx.ts";
import { EXPORT_CONTENT_TYPES, type ExportFormat } from "./formats.ts";

// Export: the rows of a base, or of a view, filter, sort and search (read through Query Rows'
// compiler, a keyset page at a time), written as CSV, XLSX or JSON Lines while they are read.

export interface ExportOptions {
  format: ExportFormat;
  viewId?: string;
  /** A filter tree as JSON text, as Get Rows takes it. */
  filter?: string;
  /** `-Employees,Company`, as Get Rows takes it. */
  sort?: string;
  search?: string;
  /** Column names or ids, comma-separated or a JSON array. */
  columns?: string;
  metadata: boolean;
  ids: boolean;
  bom: boolean;
  raw: boolean;
}

export interface ExportFile {
  filename: string;
  contentType: string;
  chunks: AsyncGenerator<string | Uint8Array>;
}

/** A file name from a base name: no path separators or control characters. */
export const exportFileName = (baseName: string, format: ExportFormat) =>
  `${
    baseName
      .replace(/[/\\\u0000-\u001f\u007f]/g, " ")
      .trim()
      .slice(0, 200) || "export"
  }.${format}`;

/**
 * Checks every option against the base (404 for another workspace's base, 400 for a bad filter,
 * sort or column) before the first byte, then returns the file as chunks read on demand.
 */
export async function openExport(
  tx: Tx,
  workspaceId: string,
  baseId: string,
  o: ExportOptions,
  copyOut?: CopyOut,
): Promise<ExportFile> {
  const { filter, sort, search, viewId } = queryFromGet({
    filter: o.filter,
    sort: o.sort,
    search: o.search,
    viewId: o.viewId,
    expand: false,
    count: false,
  });
  const query = await prepareRowsQuery(tx, workspaceId, baseId, { filter, sort, search, viewId });
  const columns = exportColumns(query.columns, {
    columns: o.columns,
    hiddenColumnIds: query.view?.hiddenColumnIds,
    metadata: o.metadata,
    ids: o.ids,
  });
  const pages = exportPages(query, o.metadata);
  // Without metadata columns the database formats CSV and JSON Lines records itself (csv-lines.ts).
  const inSql = sqlFormattable(columns);
  // With COPY (PostgreSQL) those records stream from one statement instead of keyset pages.
  const csv = { bom: o.bom, raw: o.raw };
  const chunks =
    o.format === "csv"
      ? inSql
        ? copyOut
          ? csvCopyChunks(query, columns, csv, copyOut)
          : csvLineChunks(query, columns, csv)
        : csvChunks(columns, pages, csv)
      : o.format === "xlsx"
        ? xlsxChunks(columns, pages, { raw: o.raw, sheet: query.baseCtx.name })
        : inSql
          ? copyOut
            ? jsonlCopyChunks(query, columns, copyOut)
            : jsonlLineChunks(query, columns)
          : jsonlChunks(columns, pages);
  return {
    filename: exportFileName(query.baseCtx.name, o.format),
    contentType: EXPORT_CONTENT_TYPES[o.format],
    chunks,
  };
}
