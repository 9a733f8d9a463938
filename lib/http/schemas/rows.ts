import { z } from "zod";
import { booleanQuery, defineEndpoint, intQuery, pathId } from "../endpoint.ts";
import { MAX_OFFSET, rowsQueryInputSchema, rowsQuerySchema } from "../../domain/query/request.ts";
import { baseIdParam, baseParams, cursorQuery, expandQuery, expandedRowSchema, standardRowSchema } from "./common.ts";

// Get Rows (spec §4.1) and Get Row (§4.2).

export const rowsPageSchema = z
  .strictObject({
    rows: z.array(z.union([standardRowSchema, expandedRowSchema])).describe("The rows in insertion order."),
    nextCursor: z
      .string()
      .nullable()
      .optional()
      .describe("Only with limit or cursor: the cursor of the next page, null on the last page."),
    total: z.number().int().min(0).optional().describe("With count=true: how many rows match."),
  })
  .describe(
    "Every row of the base in insertion order; without limit and cursor the JSON is streamed row by row, so memory stays flat at any size. Cells are strings, or with expand=true expanded cells.",
  );

export const getRows = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/rows",
  scope: "rows:read",
  summary: "Get Rows",
  description: "Reads all rows of a base (streamed JSON), or one page of them with limit, cursor and offset.",
  params: baseParams,
  query: expandQuery.extend({
    limit: intQuery("limit", 1, 10_000, "Page size, 1 to 10,000: returns one page and adds nextCursor."),
    cursor: cursorQuery("rows"),
    offset: intQuery(
      "offset",
      0,
      MAX_OFFSET,
      "Rows to skip before the page (after the cursor, when one is given): returns one page and adds nextCursor.",
    ),
    filter: z
      .string()
      .max(20_000)
      .optional()
      .describe("A filter tree as URL-encoded JSON (see Query Rows); answers one page."),
    sort: z
      .string()
      .max(1_000)
      .optional()
      .describe("Sort keys by column name, comma-separated, - for descending: -Employees,Company."),
    search: z.string().max(500).optional().describe("A case-insensitive substring of any cell of the row."),
    count: booleanQuery("count", "true to add total, the number of matching rows."),
    viewId: z.string().min(1).max(100).optional().describe("Apply a saved view."),
  }),
  response: rowsPageSchema,
});

export const queryRows = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/rows/query",
  scope: "rows:read",
  summary: "Query Rows",
  description:
    "One page of the rows matching a filter tree and a search, in a typed sort order, optionally through a saved view. 400 unknown_column for a column the base does not have, 400 invalid_filter (with details.path) for a malformed tree or an operator the column's type cannot take.",
  params: baseParams,
  body: rowsQuerySchema,
  parseBody: rowsQueryInputSchema,
  response: rowsPageSchema,
});

export const getRow = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/rows/{rowId}",
  scope: "rows:read",
  summary: "Get Row",
  description: "Reads one row; 404 row_not_found when the base has no such row.",
  params: z.object({ baseId: baseIdParam, rowId: pathId("The row's id (sr_…).", "row_not_found") }),
  query: expandQuery,
  response: z.union([standardRowSchema, expandedRowSchema]).describe("The row, without an envelope."),
});

export type RowsPage = z.infer<typeof rowsPageSchema>;
