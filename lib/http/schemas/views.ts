import { z } from "zod";
import { defineEndpoint, pathId } from "../endpoint.ts";
import { baseIdParam, baseParams } from "./common.ts";
import {
  createViewInputSchema,
  createViewSchema,
  updateViewInputSchema,
  updateViewSchema,
} from "../../domain/views/schemas.ts";
import { filterSchema, searchSchema, sortSchema } from "../../domain/query/request.ts";

// Saved views of a base: a filter, a sort, a search and a column layout under a name.

export const viewSchema = z
  .strictObject({
    id: z.string().describe("The view's id: view_ followed by 16 characters."),
    name: z.string().describe("The view's name."),
    isDefault: z.boolean().describe('Whether this is the base\'s default view, "All rows", which cannot be deleted.'),
    filter: filterSchema.nullable().describe("The view's filter tree; null for none."),
    sort: sortSchema,
    search: searchSchema,
    hiddenColumnIds: z.array(z.string().describe("A column id.")).describe("Columns the view hides."),
    columnWidths: z
      .record(z.string().describe("A column id."), z.number().describe("Width in pixels."))
      .describe("Column widths by column id."),
  })
  .describe("A saved view.");

// What a view's audit entries keep of a change.
const VIEW_AUDIT_FIELDS = ["name", "filter", "sort", "search", "hiddenColumnIds", "columnWidths"] as const;

const viewParams = z.object({ baseId: baseIdParam, viewId: pathId("The view's id (view_…).", "view_not_found") });

export const listViews = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/views",
  scope: "rows:read",
  summary: "List views",
  description: 'The base\'s views, the default view ("All rows") first.',
  params: baseParams,
  response: z.strictObject({ views: z.array(viewSchema).describe("Every view of the base.") }),
});

export const createView = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/views",
  scope: "rows:write",
  audit: { action: "view.create", target: "view", fields: ["name"] },
  summary: "Create a view",
  description:
    "Saves a filter, sort, search and layout under a name; the filter and sort are checked against the base's columns.",
  params: baseParams,
  body: createViewSchema,
  parseBody: createViewInputSchema,
  status: 201,
  response: viewSchema,
});

export const getView = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/views/{viewId}",
  scope: "rows:read",
  summary: "Get a view",
  params: viewParams,
  response: viewSchema,
});

export const updateView = defineEndpoint({
  method: "PATCH",
  path: "/api/v1/bases/{baseId}/views/{viewId}",
  scope: "rows:write",
  audit: { action: "view.update", target: "view", fields: VIEW_AUDIT_FIELDS },
  summary: "Update a view",
  description: "Changes the fields given (rename, new filter, …); the rest are kept.",
  params: viewParams,
  body: updateViewSchema,
  parseBody: updateViewInputSchema,
  response: viewSchema,
});

export const deleteView = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/bases/{baseId}/views/{viewId}",
  scope: "rows:write",
  audit: { action: "view.delete", target: "view", fields: ["name"] },
  summary: "Delete a view",
  description: "Deletes a view; 409 default_view for the default view.",
  params: viewParams,
  response: z.strictObject({
    id: z.string().describe("The deleted view's id."),
    deleted: z.literal(true).describe("Always true."),
  }),
});
