import { z } from "zod";
import { filterSchema, searchSchema, sortSchema } from "../query/index.ts";

// A saved view's fields as requests carry them. Apart from views.ts, which writes the table:
// the request schemas load these without the database client.

const viewFields = {
  name: z.string().trim().min(1).max(100).describe("The view's name, 1 to 100 characters."),
  filter: filterSchema.nullable().optional().describe("The view's filter tree; null for none."),
  sort: sortSchema.optional(),
  search: searchSchema.optional(),
  hiddenColumnIds: z
    .array(z.string().max(100).describe("A column id."))
    .max(500)
    .optional()
    .describe("Columns the view hides."),
  columnWidths: z
    .record(
      z.string().max(100).describe("A column id."),
      z.number().int().min(40).max(2_000).describe("Width in pixels."),
    )
    .optional()
    .describe("Column widths in pixels, by column id."),
};

export const createViewSchema = z.strictObject(viewFields).describe("A new view.");
export const updateViewSchema = z
  .strictObject({ ...viewFields, name: viewFields.name.optional() })
  .describe("The fields of the view to change; the rest are kept.");
// The filter tree is parsed against the columns (parseFilter), which names the bad node.
export const createViewInputSchema = z.strictObject({ ...viewFields, filter: z.unknown().optional() });
export const updateViewInputSchema = z.strictObject({
  ...viewFields,
  name: viewFields.name.optional(),
  filter: z.unknown().optional(),
});
