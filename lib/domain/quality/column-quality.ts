import type { Tx } from "../../db/database.ts";
import { loadAiColumn, loadBase } from "../base-context.ts";
import { reviewByOf, reviewThresholdOf, statedReviewThreshold } from "../column-model.ts";
import { needsReviewSql } from "../query/index.ts";
import { reviewLabels, withConfidence } from "./labels.ts";
import { agreementOf, byConfidence, expectedCalibrationError, MIN_LABELS, suggestedReviewThreshold } from "./stats.ts";

// The quality of an AI column, from its review history: how often reviewers agreed with the
// model, at which confidence, and what the column still needs.

export async function columnQuality(tx: Tx, workspaceId: string, baseId: string, columnId: string) {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const column = await loadAiColumn(tx, baseCtx, columnId);

  const labels = await reviewLabels(tx, column.id);
  const labelled = withConfidence(labels);
  const accepted = labels.filter((l) => l.correct).length;
  const [open] = await tx.$queryRawUnsafe<{ needs_review: number }[]>(
    `SELECT count(*)::int AS needs_review FROM cells c WHERE c.column_id = $1 AND ${needsReviewSql("c", reviewThresholdOf(column))}`,
    column.id,
  );
  const failed = await tx.$queryRawUnsafe<{ code: string; n: number }[]>(
    `SELECT COALESCE(error_code, 'internal_error') AS code, count(*)::int AS n FROM cells WHERE column_id = $1 AND status = 'error' GROUP BY 1 ORDER BY 2 DESC, 1`,
    column.id,
  );
  return {
    columnId: column.id,
    reviewed: labels.length,
    accepted,
    edited: labels.length - accepted,
    agreement: agreementOf(labels),
    byConfidence: byConfidence(labelled),
    expectedCalibrationError: expectedCalibrationError(labelled),
    suggestedReviewThreshold: suggestedReviewThreshold(labelled),
    reviewThreshold: statedReviewThreshold(column),
    reviewBy: reviewByOf(column),
    needsReview: open.needs_review,
    errors: {
      count: failed.reduce((n, f) => n + f.n, 0),
      byCode: Object.fromEntries(failed.map((f) => [f.code, f.n])),
    },
    calibrated: labelled.length >= MIN_LABELS,
  };
}
