// The arithmetic of column quality, on labelled answers: a model's confidence and whether a
// reviewer (or an evaluation) found the answer right. Pure functions, so the figures the API
// shows are the ones the tests compute by hand.

import type { Labelled } from "../isotonic.ts";

export type { Labelled };

export interface ConfidenceBucket {
  from: number;
  to: number;
  cells: number;
  /** The share of the bucket's answers that were right. */
  agreement: number;
  /** The mean confidence of the bucket's answers. */
  confidence: number;
}

/** Below this many labels no threshold is suggested and no calibration is fitted. */
export const MIN_LABELS = 30;
/** The share of right answers above the suggested threshold. */
export const TARGET_AGREEMENT = 0.9;

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Tenths: [0, 0.1), …, [0.9, 1.0]; a confidence of exactly 1 belongs to the last. The epsilon keeps 0.3 (0.30000000000000004 × 10) in its own tenth. */
const tenth = (c: number) => Math.min(9, Math.max(0, Math.floor(c * 10 + 1e-9)));

export function agreementOf(labels: readonly Pick<Labelled, "correct">[]): number | null {
  return labels.length === 0 ? null : round(labels.filter((l) => l.correct).length / labels.length);
}

function tenths(labels: readonly Labelled[]) {
  const sums = Array.from({ length: 10 }, () => ({ cells: 0, right: 0, confidence: 0 }));
  for (const l of labels) {
    const b = sums[tenth(l.confidence)];
    b.cells++;
    b.right += l.correct ? 1 : 0;
    b.confidence += l.confidence;
  }
  return sums;
}

/** Equal-width buckets in tenths, empty ones left out, ascending. */
export function byConfidence(labels: readonly Labelled[]): ConfidenceBucket[] {
  return tenths(labels).flatMap((b, i) =>
    b.cells === 0
      ? []
      : [
          {
            from: i / 10,
            to: (i + 1) / 10,
            cells: b.cells,
            agreement: round(b.right / b.cells),
            confidence: round(b.confidence / b.cells),
          },
        ],
  );
}

/** ECE = Σ_b (n_b / N) · |agreement_b − mean confidence_b|, over the tenths. */
export function expectedCalibrationError(labels: readonly Labelled[]): number | null {
  if (labels.length === 0) return null;
  const ece = tenths(labels).reduce(
    (sum, b) =>
      b.cells === 0 ? sum : sum + (b.cells / labels.length) * Math.abs(b.right / b.cells - b.confidence / b.cells),
    0,
  );
  return round(ece);
}

/**
 * The lowest threshold t, among the labelled confidences, at which the answers with confidence
 * ≥ t are right at least TARGET_AGREEMENT of the time: review below it, trust above it. Null with
 * fewer than MIN_LABELS labels, or when no threshold reaches the target.
 */
export function suggestedReviewThreshold(labels: readonly Labelled[]): number | null {
  if (labels.length < MIN_LABELS) return null;
  const sorted = [...labels].sort((a, b) => a.confidence - b.confidence);
  let right = sorted.filter((l) => l.correct).length;
  for (let i = 0; i < sorted.length; i++) {
    // Ties start together: t = sorted[i].confidence takes every answer at that confidence.
    if (i === 0 || sorted[i].confidence !== sorted[i - 1].confidence) {
      if (right / (sorted.length - i) >= TARGET_AGREEMENT) return round(sorted[i].confidence);
    }
    right -= sorted[i].correct ? 1 : 0;
  }
  return null;
}
