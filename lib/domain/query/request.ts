import { z } from "zod";
import { FILTER_LIMITS, FILTER_OPS, FILTERABLE_STATUSES } from "./filter.ts";
import { MAX_SORT_KEYS } from "./sort.ts";

// The documented shapes of a query (Query Rows, views). The filter tree is documented here in
// full, but parsed by parseFilter (filter.ts), which answers invalid_filter with the path to the
// bad node rather than a generic validation error.

const columnRef = z.string().min(1).max(100).describe("A column, by name or by id.");

const confidenceSchema = z
  .strictObject({
    lt: z.number().optional().describe("Confidence below this."),
    lte: z.number().optional().describe("Confidence at most this."),
    gt: z.number().optional().describe("Confidence above this."),
    gte: z.number().optional().describe("Confidence at least this."),
  })
  .describe("Exactly one bound on the cell's confidenceScore (cells without one never match).");

export const conditionSchema = z
  .strictObject({
    column: columnRef,
    op: z.enum(FILTER_OPS).optional().describe("A comparison fit for the column's type (see docs/api.md)."),
    value: z
      .unknown()
      .optional()
      .describe(
        `The value to compare with; a list of at most ${FILTER_LIMITS.inValues} for "in"; none for isEmpty and isNotEmpty.`,
      ),
    status: z.enum(FILTERABLE_STATUSES).optional().describe("AI columns: the cell's status."),
    confidence: confidenceSchema.optional(),
    needsReview: z.boolean().optional().describe("AI columns: whether the cell needs review."),
    verified: z.boolean().optional().describe("AI columns: whether a reviewer verified the cell."),
    stale: z.boolean().optional().describe("AI columns: whether the cell is out of date."),
    changedSince: z
      .string()
      .optional()
      .describe("AI columns: the stored answer really changed (by its column's type) at or after this ISO 8601 time."),
  })
  .describe('A condition on one column: an "op" (with its "value"), or one cell-state predicate of an AI column.');

export type FilterInput =
  | { and: FilterInput[] }
  | { or: FilterInput[] }
  | { not: FilterInput }
  | z.infer<typeof conditionSchema>;

export const filterSchema: z.ZodType<FilterInput> = z
  .union([
    z
      .strictObject({
        get and() {
          return z.array(filterSchema).min(1).describe("Every node matches.");
        },
      })
      .describe("All of the nodes."),
    z
      .strictObject({
        get or() {
          return z.array(filterSchema).min(1).describe("At least one node matches.");
        },
      })
      .describe("Any of the nodes."),
    z
      .strictObject({
        get not() {
          return filterSchema.describe("The node that must not match.");
        },
      })
      .describe("The negation of a node."),
    conditionSchema,
  ])
  .describe(
    `A filter tree of and, or, not and conditions; at most ${FILTER_LIMITS.depth} levels and ${FILTER_LIMITS.nodes} nodes.`,
  );

export const sortKeySchema = z
  .strictObject({
    column: columnRef,
    direction: z.enum(["asc", "desc"]).optional().describe("asc (the default) or desc."),
  })
  .describe("A sort key: typed, empty values last; ties keep row order.");

export const sortSchema = z
  .array(sortKeySchema)
  .max(MAX_SORT_KEYS)
  .describe(`At most ${MAX_SORT_KEYS} sort keys, the first one first.`);
export const searchSchema = z
  .string()
  .max(500)
  .describe("A case-insensitive substring of any cell of the row; at most 500 characters.");

/** The deepest a page may start: past it, page on with cursors. */
export const MAX_OFFSET = 10_000_000;

const queryFields = {
  sort: sortSchema.optional(),
  search: searchSchema.optional(),
  viewId: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe("Apply this view: its filter is ANDed with `filter`; its sort and search apply unless given here."),
  limit: z.number().int().min(1).max(10_000).optional().describe("Page size, 1 to 10,000; default 100."),
  cursor: z
    .string()
    .min(1)
    .max(4_000)
    .nullable()
    .optional()
    .describe("The nextCursor of the previous page; null or absent for the first page."),
  offset: z
    .number()
    .int()
    .min(0)
    .max(MAX_OFFSET)
    .optional()
    .describe(
      `Rows to skip before the page (after the cursor, when one is given), 0 to ${MAX_OFFSET.toLocaleString("en")}: a grid jumps to a position with it; default 0.`,
    ),
  expand: z.boolean().optional().describe("true for cells in the expanded form; default false."),
  count: z.boolean().optional().describe("true to add `total`, the number of matching rows."),
};

export const rowsQuerySchema = z
  .strictObject({
    filter: filterSchema.nullable().optional().describe("The filter tree; null or absent for every row."),
    ...queryFields,
  })
  .describe("What to read: a filter, a sort, a search, optionally through a view, one page at a time.");

/** What the edge enforces: the filter tree itself is parsed by parseFilter. */
export const rowsQueryInputSchema = z.strictObject({ filter: z.unknown().optional(), ...queryFields });

export type RowsQueryInput = z.infer<typeof rowsQueryInputSchema>;
