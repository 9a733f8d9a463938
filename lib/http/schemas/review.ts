import { z } from "zod";
import { defineEndpoint, intQuery, pathId } from "../endpoint.ts";
import { baseIdParam, baseParams } from "./common.ts";
import { HISTORY_ACTIONS, REVIEW_ACTIONS, reviewRequestSchema } from "../../domain/review/schemas.ts";

// Review: accept, correct or re-run AI cells; and the history of those actions.

const reviewedCellSchema = z
  .strictObject({
    rowId: z.string().describe("The row's id."),
    columnId: z.string().describe("The column's id."),
    action: z.enum(REVIEW_ACTIONS).describe("The action applied."),
    actionId: z.string().describe("The action's id in the review history (rev_…): undo an accept or an edit with it."),
    value: z.string().describe('The cell\'s value now ("" while a re-run is pending).'),
    status: z.string().describe("The cell's status now."),
    verified: z.boolean().describe("Whether the cell is verified now."),
  })
  .describe("A cell the action was applied to.");

const reviewErrorSchema = z
  .strictObject({
    rowId: z.string().describe("The row asked for."),
    columnId: z.string().describe("The column asked for."),
    code: z
      .enum(["row_not_found", "column_not_found", "not_reviewable", "invalid_value", "value_too_long"])
      .describe("What kind of problem."),
    message: z.string().describe("What is wrong."),
  })
  .describe("A cell the action was not applied to, and why.");

export const reviewCells = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/review",
  scope: "rows:write",
  summary: "Review cells",
  description:
    "Partial, like Update Rows: each cell's action is applied or reported in errors. accept verifies a done cell; edit stores a corrected value as verified (the model's answer kept as metadata.aiValue); rerun queues the cell again and clears verified. Verified cells are never regenerated unless a run passes force, and serve as worked examples for their column.",
  params: baseParams,
  body: reviewRequestSchema,
  response: z.strictObject({
    cells: z.array(reviewedCellSchema).describe("The cells reviewed."),
    errors: z.array(reviewErrorSchema).describe("Cells not reviewed; [] when all went well."),
  }),
});

const snapshotSchema = z
  .strictObject({
    value: z.string().describe("The cell's value."),
    status: z.string().describe("The cell's status."),
    verified: z.boolean().describe("Whether it was verified."),
    stale: z.boolean().describe("Whether it was stale."),
    confidence: z.number().nullable().describe("Its confidenceScore; null when none."),
  })
  .describe("A cell at one moment.");

export const reviewHistory = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/review",
  scope: "rows:read",
  summary: "Review history",
  description: "Every review action on the base, newest first: who, when, and the cell before and after.",
  params: baseParams,
  query: z.object({ limit: intQuery("limit", 1, 1_000, "How many actions, 1 to 1,000; default 100.") }),
  response: z.strictObject({
    actions: z
      .array(
        z
          .strictObject({
            id: z.string().describe("The action's id (rev_…)."),
            rowId: z.string().describe("The row."),
            columnId: z.string().describe("The column."),
            action: z
              .enum(HISTORY_ACTIONS)
              .describe("What was done; undo took back the cell's previous accept or edit."),
            actorKeyId: z
              .string()
              .describe(
                "Who did it: the API key (key_…), the key of the signed-in session, or the signed-in user (usr_…).",
              ),
            before: snapshotSchema,
            after: snapshotSchema,
            createdAt: z.string().describe("When (ISO 8601, UTC)."),
          })
          .describe("One review action."),
      )
      .describe("The actions, newest first."),
  }),
});

export const undoReview = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/review/{actionId}/undo",
  scope: "rows:write",
  // The target is the action taken back (the path's actionId); never the cell's value.
  audit: { action: "review.undo", target: "review_action", fields: ["rowId", "columnId"] },
  summary: "Undo a review action",
  description:
    "Takes back an accept or an edit: the cell's value, verified and stale return to what they were just before it, and the undo is recorded in the history. Only the cell's latest review action can be undone, and only while the cell is as that action left it (409 not_reviewable otherwise); a re-run cannot be undone.",
  params: z.object({
    baseId: baseIdParam,
    actionId: pathId(
      "The review action's id (rev_…), as Review Cells or the history gave it.",
      "review_action_not_found",
    ),
  }),
  response: z.strictObject({
    rowId: z.string().describe("The row."),
    columnId: z.string().describe("The column."),
    action: z.literal("undo").describe("Always undo."),
    actionId: z.string().describe("The undo's own id in the history."),
    undone: z.string().describe("The id of the action taken back."),
    value: z.string().describe("The cell's value now."),
    status: z.string().describe("The cell's status now."),
    verified: z.boolean().describe("Whether the cell is verified now (true when an earlier review had verified it)."),
  }),
});
