import { z } from "zod";

// A review request as the API takes it. Apart from actions.ts, which applies it: the endpoint
// schemas read this module, and the server's edge loads those (see test/unit/load-on-use.test.ts).

export const REVIEW_ACTIONS = ["accept", "edit", "rerun"] as const;
/** What the history records: the actions, and undoing an accept or an edit. */
export const HISTORY_ACTIONS = [...REVIEW_ACTIONS, "undo"] as const;
export const MAX_REVIEW_CELLS = 1_000;

export const reviewItemSchema = z
  .strictObject({
    rowId: z.string().min(1).max(100).describe("The row's id (sr_…)."),
    columnId: z.string().min(1).max(100).describe("The AI column, by id (or name)."),
    action: z
      .enum(REVIEW_ACTIONS)
      .describe(
        "accept: verify the value as it is; edit: store `value` as the verified value; rerun: queue the cell again and clear verified.",
      ),
    value: z.unknown().optional().describe("edit only: the corrected value, checked by the column's type."),
  })
  .describe("One review action on one cell.");

export const reviewRequestSchema = z
  .strictObject({
    cells: z
      .array(reviewItemSchema)
      .min(1)
      .max(MAX_REVIEW_CELLS)
      .describe(`The cells to review, 1 to ${MAX_REVIEW_CELLS}.`),
  })
  .describe("Review actions, applied cell by cell: a cell that cannot take its action is reported in errors.");

export type ReviewRequest = z.infer<typeof reviewRequestSchema>;
