import { z } from "zod";
import { booleanQuery, defineEndpoint } from "../endpoint.ts";
import { EXPORT_FORMATS } from "../../domain/export/formats.ts";
import { baseParams } from "./common.ts";

// Export (issue "Data in and out" §3): a base's rows as a file, streamed.

const defaultTrue = (name: string, description: string) =>
  z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(["true", "false", "1", "0"], { error: `${name} must be true, false, 1 or 0.` }))
    .optional()
    .transform((v) => v === undefined || v === "true" || v === "1")
    .describe(description);

export const exportRows = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/export",
  scope: "rows:read",
  audit: { action: "export.download", target: "base" },
  summary: "Export rows",
  description:
    "Streams the rows of a base as a file attachment named after the base: CSV (RFC 4180, CRLF, UTF-8 with a BOM), XLSX (typed cells, frozen header) or JSON Lines. Takes viewId, filter, sort and search as Get Rows does. Text cells beginning with =, +, -, @, tab or CR get a leading ' in CSV and XLSX (raw=true turns this off). 400 invalid_query for a bad option, unknown_column for a column the base lacks, invalid_filter for a bad filter.",
  params: baseParams,
  query: z.object({
    format: z.enum(EXPORT_FORMATS, { error: "format must be csv, xlsx or jsonl." }).describe("csv, xlsx or jsonl."),
    viewId: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe("Export through a saved view: its filter, sort, search and visible columns."),
    filter: z.string().max(20_000).optional().describe("A filter tree as URL-encoded JSON (see Query Rows)."),
    sort: z
      .string()
      .max(1_000)
      .optional()
      .describe("Sort keys by column name, comma-separated, - for descending: -Employees,Company."),
    search: z.string().max(500).optional().describe("A case-insensitive substring of any cell of the row."),
    columns: z
      .string()
      .max(20_000)
      .optional()
      .describe(
        'The columns to export, in order, by name or id: comma-separated (Company,Website) or a JSON array (["Company","Website"]).',
      ),
    metadata: booleanQuery(
      "metadata",
      "true to add, after each AI column, its confidence, sources (newline-separated), status and verified.",
    ),
    ids: booleanQuery("ids", 'true to add the row id as the first column, "Row ID".'),
    bom: defaultTrue("bom", "CSV only: false to leave out the UTF-8 byte order mark."),
    raw: booleanQuery("raw", "true to turn off the formula-injection guard."),
  }),
  responseContentType:
    "text/csv, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet or application/x-ndjson",
  response: z
    .string()
    .meta({ format: "binary" })
    .describe("The file, as an attachment (Content-Disposition names it after the base)."),
});
