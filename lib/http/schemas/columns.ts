import { z } from "zod";
import { booleanQuery, defineEndpoint, pathId } from "../endpoint.ts";
import { baseIdParam, baseParams, columnIdSchema, columnViewSchema } from "./common.ts";
import { columnInputSchema } from "../../domain/columns/input.ts";

// Columns of a base. The body is the one column schema that base creation and the assistant's
// manageColumn use too.

// What a column's audit entries keep of a change (never cell values).
const COLUMN_AUDIT_FIELDS = [
  "name",
  "type",
  "index",
  "isAiEnabled",
  "isPrimary",
  "inputColumnIds",
  "tools",
  "instructions",
  "columnOptions",
  "runIf",
] as const;

export const columnParams = z.object({
  baseId: baseIdParam,
  columnId: pathId("The column's id (scol_…).", "column_not_found"),
});

export const createColumn = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/columns",
  scope: "schema:write",
  audit: { action: "column.create", target: "column", fields: ["name", "type"] },
  summary: "Create a column",
  params: baseParams,
  body: columnInputSchema,
  status: 201,
  response: columnViewSchema,
});

export const updateColumn = defineEndpoint({
  method: "PATCH",
  path: "/api/v1/bases/{baseId}/columns/{columnId}",
  scope: "schema:write",
  audit: { action: "column.update", target: "column", fields: COLUMN_AUDIT_FIELDS },
  summary: "Change a column",
  description: "Changes any field; index moves the column. A type change re-normalises the values.",
  params: columnParams,
  body: columnInputSchema,
  response: columnViewSchema,
});

export const deleteColumn = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/bases/{baseId}/columns/{columnId}",
  scope: "schema:write",
  audit: { action: "column.delete", target: "column", fields: ["name", "type"] },
  summary: "Delete a column",
  description: "The primary column, or one other columns use as input, needs force=true.",
  params: columnParams,
  query: z.object({
    force: booleanQuery(
      "force",
      "true (or 1) to delete the primary column or a column others use as input; default false.",
    ),
  }),
  response: z.strictObject({
    id: columnIdSchema,
    deleted: z.literal(true).describe("Always true."),
    cleanedDependents: z.array(columnIdSchema).describe("Columns that lost this column as input."),
  }),
});

export type ColumnView = z.infer<typeof columnViewSchema>;
