import { z } from "zod";
import { defineEndpoint, intQuery, pathId } from "../endpoint.ts";
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
  })
  .describe(
    "Every row of the base in insertion order; without limit and cursor the JSON is streamed row by row, so memory stays flat at any size. Cells are strings, or with expand=true expanded cells.",
  );

export const getRows = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/rows",
  summary: "Get Rows",
  description: "Reads all rows of a base (streamed JSON), or one page of them with limit and cursor.",
  params: baseParams,
  query: expandQuery.extend({
    limit: intQuery("limit", 1, 10_000, "Page size, 1 to 10,000: returns one page and adds nextCursor."),
    cursor: cursorQuery("rows"),
  }),
  response: rowsPageSchema,
});

export const getRow = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/rows/{rowId}",
  summary: "Get Row",
  description: "Reads one row; 404 row_not_found when the base has no such row.",
  params: z.object({ baseId: baseIdParam, rowId: pathId("The row's id (sr_…).", "row_not_found") }),
  query: expandQuery,
  response: z.union([standardRowSchema, expandedRowSchema]).describe("The row, without an envelope."),
});

export type RowsPage = z.infer<typeof rowsPageSchema>;
