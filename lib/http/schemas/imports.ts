import { z } from "zod";
import { defineEndpoint, intQuery, pathId } from "../endpoint.ts";
import { baseParams, isoDate, nullableIsoDate } from "./common.ts";
import { MAX_MERGE_COLUMNS } from "../../domain/rows/upsert.ts";

// Imports: a CSV (or TSV, or ;-separated), XLSX or JSON Lines file taken in as a background job,
// with upsert on a natural key (docs/import.md).

const flag = (name: string, description: string) =>
  z
    .enum(["true", "false", "1", "0"], { error: `${name} must be true, false, 1 or 0.` })
    .optional()
    .transform((v) => v === undefined || v === "true" || v === "1")
    .describe(`${description} Default true.`);

export const importQuery = z.object({
  mergeOn: z
    .array(z.string().min(1).max(255))
    .max(MAX_MERGE_COLUMNS)
    .optional()
    .transform((v) => v ?? [])
    .describe(
      "A column of the natural key; repeat it for a compound key. A line whose key matches a row updates it; empty keys always add.",
    ),
  createColumns: flag(
    "createColumns",
    "Headers that match no column become columns, their type inferred; with false they are listed in ignoredColumns.",
  ),
  typecast: flag(
    "typecast",
    "Cast spreadsheet values (1,234.5, dates, yes/no, new select options); with false values must be valid as they are.",
  ),
  runAi: flag("runAi", "Queue the AI cells of new rows, and re-run dependents of changed inputs."),
  header: flag(
    "header",
    "The first line holds the column names; with false the fields are named Column 1, Column 2, …",
  ),
  sheet: z.string().min(1).max(255).optional().describe("XLSX: the worksheet to read; the first one otherwise."),
  format: z
    .enum(["csv", "xlsx", "jsonl"])
    .optional()
    .describe("The format, when neither the Content-Type nor the file name tells it."),
});

const errorSchema = z
  .strictObject({
    line: z.number().int().min(0).describe("The line of the file (1-based; 0 when the problem is not on a line)."),
    column: z.string().nullable().describe("The column at fault, when one value is."),
    code: z.string().describe("invalid_value, value_too_long, invalid_file, unknown_column, limit_reached, …"),
    message: z.string().describe("What is wrong."),
  })
  .describe("A line skipped, or why the import failed.");

export const importSchema = z
  .strictObject({
    id: z.string().describe("The import's id (imp_…)."),
    status: z.enum(["queued", "running", "done", "failed"]).describe("queued, running, done or failed."),
    format: z.enum(["csv", "xlsx", "jsonl"]).describe("The file's format."),
    fileName: z.string().describe("The file's name as uploaded."),
    size: z.number().int().min(0).describe("Its size in bytes."),
    options: z
      .strictObject({
        mergeOn: z.array(z.string()).describe("The merge key's columns."),
        createColumns: z.boolean().describe("Whether unknown headers become columns."),
        typecast: z.boolean().describe("Whether values are cast."),
        runAi: z.boolean().describe("Whether AI cells are queued."),
        header: z.boolean().describe("Whether the first line is a header."),
        sheet: z.string().optional().describe("The worksheet read (XLSX)."),
      })
      .describe("The options it runs with."),
    linesTotal: z
      .number()
      .int()
      .nullable()
      .describe("Data lines in the file, once the first pass has read it; null before."),
    rowsRead: z.number().int().min(0).describe("Data lines processed so far."),
    rowsCreated: z.number().int().min(0).describe("Rows added."),
    rowsUpdated: z.number().int().min(0).describe("Lines that updated a row (merge key matched)."),
    rowsSkipped: z.number().int().min(0).describe("Lines skipped: a value that cannot be cast, or no value at all."),
    createdColumns: z.array(z.string()).describe("Columns created from the file's headers."),
    ignoredColumns: z.array(z.string()).describe("Headers that went to no column."),
    errors: z.array(errorSchema).describe("The first 100 problems."),
    runId: z.string().nullable().describe("The run of the AI cells the import queued; null when none."),
    createdAt: isoDate("When it was uploaded"),
    startedAt: nullableIsoDate("When a worker started it"),
    finishedAt: nullableIsoDate("When it ended"),
  })
  .describe("An import job and its progress.");

const importParams = baseParams.extend({ importId: pathId("The import's id (imp_…).", "import_not_found") });

export const createImport = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/imports",
  scope: "rows:write",
  audit: { action: "import.start", target: "import", fields: ["format", "fileName", "size"] },
  summary: "Import a file",
  description:
    "Takes a CSV, TSV, XLSX or JSON Lines file as the body (or the multipart field file), at most IMPORT_MAX_BYTES, and imports it in the background: 202 with the import, then poll it or watch import.updated on the base's event stream. A file that does not parse fails with the line and reason and writes nothing.",
  params: baseParams,
  query: importQuery,
  bodyType: "upload",
  body: z
    .string()
    .meta({ format: "binary" })
    .describe(
      "The file: the body itself (Content-Type text/csv, text/tab-separated-values, the XLSX type or application/x-ndjson), or the multipart field file.",
    ),
  status: 202,
  response: importSchema,
});

export const listImports = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/imports",
  scope: "rows:read",
  summary: "List imports",
  description: "The base's imports, newest first.",
  params: baseParams,
  query: z.object({ limit: intQuery("limit", 1, 100, "How many, 1 to 100 (default 20).") }),
  response: z.strictObject({ imports: z.array(importSchema).describe("The imports, newest first.") }),
});

export const getImport = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/imports/{importId}",
  scope: "rows:read",
  summary: "Get an import",
  description: "An import's status, counters and first errors.",
  params: importParams,
  response: importSchema,
});

export const previewImport = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/imports/preview",
  scope: "rows:write",
  summary: "Preview an import",
  description:
    "A dry run: reads the whole file as an import would (same body and options) and answers at once with its first 20 lines, where each field would go, the inferred types, and how many AI cells the import would queue at most. Writes nothing. A file that does not parse is 400 invalid_file with details.line.",
  params: baseParams,
  query: importQuery,
  bodyType: "upload",
  body: z.string().meta({ format: "binary" }).describe("The file, as for Import a file."),
  response: z.strictObject({
    format: z.enum(["csv", "xlsx", "jsonl"]).describe("The format detected."),
    linesTotal: z.number().int().min(0).describe("Data lines in the file."),
    fields: z
      .array(
        z
          .strictObject({
            name: z.string().describe("The header (or key, or Column n)."),
            action: z
              .enum(["match", "create", "ignore"])
              .describe("match: an existing column; create: a new column; ignore: nowhere."),
            column: z.string().nullable().describe("The column it goes to; null when ignored."),
            type: z.string().nullable().describe("That column's type (inferred for a new one); null when ignored."),
          })
          .describe("One field of the file."),
      )
      .describe("The file's fields in order."),
    rows: z.array(z.array(z.string()).describe("A line's fields, as read.")).describe("The first 20 data lines."),
    aiColumns: z.array(z.string()).describe("The AI columns whose cells new rows would queue."),
    aiCells: z
      .number()
      .int()
      .min(0)
      .describe("At most this many AI cells would be queued (every line a new row); 0 with runAi=false."),
  }),
});
