import type { EvaluationResult, EvaluationStatus } from "../data/types";

/** 0.849 → "85%"; a dash when there is nothing to measure yet. */
export const percent = (n: number | null | undefined) => (typeof n === "number" ? `${Math.round(n * 100)}%` : "–");

/** Thresholds and calibration errors keep two decimals: 0.75, 0.07. */
export const decimal = (n: number | null | undefined) => (typeof n === "number" ? n.toFixed(2) : "–");

/** The difference of two accuracies in percentage points, signed: "+15 points". */
export function pointsDelta(before: number | null, after: number | null): string | null {
  if (before === null || after === null) return null;
  const d = Math.round(after * 100) - Math.round(before * 100);
  return `${d > 0 ? "+" : d < 0 ? "−" : "±"}${Math.abs(d)} ${Math.abs(d) === 1 ? "point" : "points"}`;
}

export const STATUS_LABEL: Record<EvaluationStatus, string> = {
  running: "Running",
  paused: "Paused",
  done: "Done",
  cancelled: "Cancelled",
};

/**
 * Rows whose verdict moved: right before and wrong now, or the other way round. Rows without a
 * reviewed answer, or not judged yet, cannot have moved.
 */
export function changedResults(
  results: readonly EvaluationResult[],
): (EvaluationResult & { previous: NonNullable<EvaluationResult["previous"]> })[] {
  return results.filter(
    (r): r is EvaluationResult & { previous: NonNullable<EvaluationResult["previous"]> } =>
      r.previous !== null && r.correct !== null && r.correct !== r.previous.correct,
  );
}
