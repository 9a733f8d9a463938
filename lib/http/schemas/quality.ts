import { z } from "zod";
import { defineEndpoint, intQuery, pathId } from "../endpoint.ts";
import { columnViewSchema, isoDate, nullableIsoDate } from "./common.ts";
import { columnParams } from "./columns.ts";
import { RUN_STATUSES } from "../../domain/runs/states.ts";
import { REVIEW_BY, TOOL_NAMES } from "../../domain/column-model.ts";
import { CHANGEABLE, evaluateRequestSchema } from "../../domain/evaluations/settings.ts";

// Column quality: measured agreement and calibration from the review history, and evaluations
// (the column regenerated blind on its verified rows) before credits are spent on a whole base.

const share = (what: string) => z.number().min(0).max(1).nullable().describe(what);

const bucketSchema = z
  .strictObject({
    from: z.number().describe("The bucket's lowest confidence (inclusive)."),
    to: z.number().describe("Its highest (exclusive, but 1.0 belongs to the last bucket)."),
    cells: z.number().int().min(1).describe("Answers in the bucket."),
    agreement: z.number().min(0).max(1).describe("The share of them that were right."),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .describe("Their mean confidence: a calibrated column's agreement is close to it."),
  })
  .describe("A tenth of the confidence scale.");

const bucketsSchema = z.array(bucketSchema).describe("Equal-width buckets in tenths, ascending; empty ones left out.");

export const columnQuality = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/columns/{columnId}/quality",
  scope: "rows:read",
  summary: "Get a column's quality",
  description:
    "Agreement of reviewers with the AI column, by confidence, from its review history: an accept counts as agreement, an edit as disagreement. With 30 or more reviews the column is calibrated: its cells carry metadata.calibratedConfidence.",
  params: columnParams,
  response: z.strictObject({
    columnId: z.string().describe("The column."),
    reviewed: z
      .number()
      .int()
      .min(0)
      .describe("Cells whose standing review is an accept or an edit of a model answer."),
    accepted: z.number().int().min(0).describe("Of those, accepted."),
    edited: z.number().int().min(0).describe("Of those, corrected."),
    agreement: share("accepted / reviewed; null with no reviews."),
    byConfidence: bucketsSchema,
    expectedCalibrationError: share(
      "Σ over buckets of (cells / reviewed) × |agreement − mean confidence|; null with no reviews.",
    ),
    suggestedReviewThreshold: share(
      "The lowest confidence at which the answers at or above it agree at least 90% of the time; null with fewer than 30 reviews, or when none does.",
    ),
    reviewThreshold: z.number().min(0).max(1).describe("The column's columnOptions.reviewThreshold (default 0.7)."),
    reviewBy: z
      .enum(REVIEW_BY)
      .describe("What the threshold is compared with: the model's confidence, or the calibrated one."),
    needsReview: z.number().int().min(0).describe("The column's cells that need review now."),
    errors: z
      .strictObject({
        count: z.number().int().min(0).describe("Cells in error."),
        byCode: z.record(z.string(), z.number().int()).describe("Cells in error by error code."),
      })
      .describe("The column's cells that ended in error."),
    calibrated: z.boolean().describe("Whether the column has the 30 reviews with a confidence that calibration needs."),
  }),
});

const evaluationParams = z.object({ evaluationId: pathId("The evaluation's id (eval_…).", "evaluation_not_found") });

const evaluationSummary = z
  .strictObject({
    id: z.string().describe("The evaluation's id (eval_…)."),
    baseId: z.string().describe("Its base."),
    columnId: z.string().describe("Its column."),
    runId: z.string().describe("Its run: cancel, pause or resume it there."),
    status: z.enum(RUN_STATUSES).describe("Its run's status."),
    settings: z
      .strictObject({
        instructions: z.string().describe("The instructions it generated with."),
        model: z.string().describe('The model, as "provider:model".'),
        tools: z.array(z.enum(TOOL_NAMES)).describe("The tools."),
        judgeModel: z.string().nullable().describe("The judge of long-text answers; null when compared normalised."),
        changed: z.array(z.enum(CHANGEABLE)).describe("Which of the column's settings it overrode."),
      })
      .describe("What it evaluated."),
    counts: z
      .strictObject({
        rows: z.number().int().describe("Rows evaluated."),
        pending: z.number().int().describe("Waiting."),
        running: z.number().int().describe("Being asked now."),
        done: z.number().int().describe("Answered and compared."),
        error: z.number().int().describe("Ended in error (uncharged)."),
        cancelled: z.number().int().describe("Cancelled."),
        correct: z.number().int().describe("Answers that matched the verified value."),
        incorrect: z.number().int().describe("Answers that did not."),
      })
      .describe("Its rows by status and verdict."),
    accuracy: share("correct / (correct + incorrect); null before the first answer."),
    previousAccuracy: share(
      "The column's own answers on the same rows, as reviewed (accepted = right, edited = wrong); null when none were the model's.",
    ),
    expectedCalibrationError: share("As in the column's quality, over the evaluated answers."),
    byConfidence: bucketsSchema,
    creditsSpent: z.number().int().min(0).describe("Credits charged so far."),
    estimatedCredits: z.number().int().min(0).describe("What all its rows cost."),
    createdAt: isoDate("When it started"),
    finishedAt: nullableIsoDate("When it finished or was cancelled"),
    appliedAt: nullableIsoDate("When its settings were applied to the column"),
  })
  .describe("An evaluation: its settings, progress and figures.");

const resultSchema = z
  .strictObject({
    rowId: z.string().describe("The row."),
    status: z
      .enum(["pending", "running", "done", "error", "cancelled"])
      .describe("The row's status in the evaluation."),
    expected: z.string().describe("The verified value."),
    got: z.string().nullable().describe("The evaluated answer; null until answered."),
    correct: z.boolean().nullable().describe("Whether it matched; null until answered."),
    confidence: z.number().nullable().describe("The model's confidence in it."),
    reason: z.string().nullable().describe("The judge's reason, or the error's message."),
    previous: z
      .strictObject({
        value: z.string().describe("The column's own answer."),
        correct: z.boolean().describe("Whether the reviewer accepted it."),
      })
      .nullable()
      .describe("The column's own answer on this row; null when a person typed the value."),
  })
  .describe("One evaluated row.");

export const estimateEvaluation = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/columns/{columnId}/evaluate/estimate",
  scope: "rows:read",
  summary: "Estimate an evaluation",
  description: "What Evaluate a column would run and cost, without starting it.",
  params: columnParams,
  body: evaluateRequestSchema,
  response: z.strictObject({
    rows: z.number().int().min(1).describe("Verified rows it would evaluate."),
    estimatedCredits: z.number().int().min(0).describe("What they cost."),
  }),
});

export const evaluateColumn = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/columns/{columnId}/evaluate",
  scope: "runs:write",
  audit: { action: "evaluation.start", target: "evaluation", fields: ["rows", "estimatedCredits"] },
  summary: "Evaluate a column",
  description:
    "Regenerates the AI column blind on its verified rows (a row's own verified value is never shown to the model), optionally with other instructions, model or tools, and compares each answer with the verified value by the column's type. Charged per row like a cell; it never changes the base's cells. 409 nothing_to_evaluate without verified cells.",
  params: columnParams,
  body: evaluateRequestSchema,
  status: 202,
  response: z.strictObject({
    id: z.string().describe("The evaluation's id (eval_…)."),
    runId: z.string().describe("Its run."),
    rows: z.number().int().min(1).describe("Rows it evaluates."),
    estimatedCredits: z.number().int().min(0).describe("What they cost."),
  }),
});

export const getEvaluation = defineEndpoint({
  method: "GET",
  path: "/api/v1/evaluations/{evaluationId}",
  scope: "rows:read",
  summary: "Get an evaluation",
  description: "Its progress, figures and every row's verdict.",
  params: evaluationParams,
  response: evaluationSummary.extend({ results: z.array(resultSchema).describe("Its rows, by row id.") }),
});

export const listEvaluations = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/columns/{columnId}/evaluations",
  scope: "rows:read",
  summary: "List a column's evaluations",
  description: "Newest first, with their settings and figures, to compare prompts side by side.",
  params: columnParams,
  query: z.object({ limit: intQuery("limit", 1, 100, "How many, 1 to 100 (default 20).") }),
  response: z.strictObject({ evaluations: z.array(evaluationSummary).describe("The evaluations, newest first.") }),
});

export const applyEvaluation = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/columns/{columnId}/evaluations/{evaluationId}/apply",
  scope: "schema:write",
  audit: { action: "evaluation.apply", target: "evaluation" },
  summary: "Apply an evaluation",
  description:
    "Writes the evaluation's instructions, model and tools to its column (a change of the column like any other). 409 evaluation_not_finished unless it is done.",
  params: columnParams.extend(evaluationParams.shape),
  bodyType: "optional-json",
  body: z.strictObject({}).describe("No fields."),
  response: z.strictObject({ column: columnViewSchema, evaluation: evaluationSummary }),
});
