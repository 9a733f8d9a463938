import { z } from "zod";
import { booleanQuery, defineEndpoint, limitedArray } from "../endpoint.ts";
import { baseParams, expandedRowSchema, rowIdSchema, standardRowSchema } from "./common.ts";
import { MAX_ROWS_PER_REQUEST, newRowSchema, rowUpdateSchema } from "../../domain/rows/input.ts";
import { MAX_MERGE_COLUMNS } from "../../domain/rows/upsert.ts";

// Add Rows (spec §4.4), Update Rows (§4.5) and delete-rows. The rows of Add and Update Rows are
// checked one by one by the domain (checkNewRow, checkRowUpdate, with these same row schemas), so
// that each problem is reported with its row; the edge enforces the envelope and the row limit.
// Envelopes ignore unknown keys, as they always have.

const runIdSchema = z
  .string()
  .nullable()
  .describe("The run of the AI cells this request queued (run_…); null when it queued none.");

const rowsOf = <T extends z.ZodType>(row: T, description: string) =>
  z.object({ rows: limitedArray(row, MAX_ROWS_PER_REQUEST, "too_many_rows", "rows").describe(description) });

const mergeOnSchema = z
  .array(z.string().min(1).max(255).describe("A column name (NFC, case-insensitive)."))
  .min(1)
  .max(MAX_MERGE_COLUMNS)
  .optional()
  .describe(
    "Upsert on a natural key: a row whose values in these columns match an existing row updates that row's supplied cells instead of adding one; a key repeated in the request updates the row its earlier row made; an empty key value always adds.",
  );

// Beyond the spec: expand=true answers with the rows as Get Rows' expand=true shows them, the cells
// as the write left them (an AI cell it queued is pending), so a caller needs no second read.
const writeQuery = z.object({
  expand: booleanQuery(
    "expand",
    "true (or 1) for the rows in the expanded form, each cell with its status and metadata as the write left it (a queued AI cell pending) and the row's processing; default false.",
  ),
});

const writtenRowSchema = z.union([standardRowSchema, expandedRowSchema]);

const addRowsBody = <T extends z.ZodType>(row: T, description: string) =>
  rowsOf(row, description).extend({ mergeOn: mergeOnSchema });

export const addRows = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/add-rows",
  scope: "rows:write",
  audit: { action: "run.start", target: "run", optional: true },
  summary: "Add Rows",
  description:
    'All or nothing: when any row is invalid nothing is written and the answer is 400 validation_failed with details.errors, each { rowIndex, column?, code, message }. More than 10,000 rows is 400 too_many_rows. AI cells left out or "" are generated. With mergeOn it is an upsert; a mergeOn name that matches no column is 400 unknown_column.',
  params: baseParams,
  query: writeQuery,
  body: addRowsBody(newRowSchema, "The rows to add, at most 10,000."),
  parseBody: addRowsBody(z.unknown(), "The rows to add."),
  response: z.strictObject({
    rows: z
      .array(writtenRowSchema)
      .describe(
        "The new rows with their ids, every column present (expanded with expand=true); with mergeOn, the row each input row went to, in input order.",
      ),
    createdRowIds: z.array(rowIdSchema).optional().describe("With mergeOn: the rows added."),
    updatedRowIds: z.array(rowIdSchema).optional().describe("With mergeOn: the existing rows updated."),
    runId: runIdSchema,
  }),
});

export const updateRowsErrorSchema = z
  .strictObject({
    rowId: z.string().nullable().describe("The row's id; null when the row had none."),
    code: z
      .enum(["row_not_found", "invalid_row", "unknown_column", "invalid_value", "value_too_long"])
      .describe("What kind of problem."),
    column: z.string().optional().describe("The column at fault, when one cell is."),
    message: z.string().describe("What is wrong."),
  })
  .describe("A row that was not updated, and why.");

export const updateRowsResponseSchema = z.strictObject({
  rows: z.array(writtenRowSchema).describe("The updated rows with every column (expanded with expand=true)."),
  errors: z.array(updateRowsErrorSchema).describe("Rows that failed; [] when all went well."),
  runId: runIdSchema,
});

export const updateRows = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/update-rows",
  scope: "rows:write",
  audit: { action: "run.start", target: "run", optional: true },
  summary: "Update Rows",
  description:
    'Partial: each row is applied whole or reported in errors; 200 even when every row failed. "" clears a cell (and re-runs an AI cell).',
  params: baseParams,
  query: writeQuery,
  body: rowsOf(rowUpdateSchema, "The row changes, at most 10,000."),
  parseBody: rowsOf(z.unknown(), "The row changes."),
  response: updateRowsResponseSchema,
});

export const deleteRows = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/delete-rows",
  scope: "rows:write",
  audit: { action: "rows.delete" },
  summary: "Delete rows",
  description: "Deletes rows by id; unknown ids are reported in errors.",
  params: baseParams,
  body: z.object({
    rowIds: limitedArray(
      z.string().max(100).describe("A row id (sr_…)."),
      MAX_ROWS_PER_REQUEST,
      "too_many_rows",
      "rows",
    ).describe("The ids of the rows to delete, at most 10,000."),
  }),
  response: z.strictObject({
    deletedRowIds: z.array(rowIdSchema).describe("The rows deleted."),
    errors: z
      .array(
        z
          .strictObject({
            rowId: z.string().describe("The id asked for."),
            code: z.literal("row_not_found").describe("Always row_not_found."),
            message: z.string().describe("What is wrong."),
          })
          .describe("An id with no row in this base."),
      )
      .describe("Ids that were not deleted; [] when all were."),
  }),
});

export type UpdateRowsResult = z.infer<typeof updateRowsResponseSchema>;
