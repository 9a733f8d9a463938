// Isotonic calibration: the non-decreasing function of confidence closest (in squared error) to
// the observed right/wrong labels, found by pool-adjacent-violators. Between the fitted points
// it interpolates linearly, and it is flat beyond the ends, so it is continuous and monotone:
// "calibrated ≥ T" is then "confidence ≥ some c*", which lets the database filter on the model's
// own confidence (rawThresholdFor).

/** A model's confidence in an answer and whether a reviewer (or an evaluation) found it right. */
export interface Labelled {
  confidence: number;
  correct: boolean;
}

export interface CalibrationFit {
  /** Ascending confidences and their calibrated values (non-decreasing). */
  points: [number, number][];
  /** How many labels it was fitted on. */
  labels: number;
}

export function fitIsotonic(labels: readonly Labelled[]): CalibrationFit {
  // Labels at one confidence start as one block, so the fitted points' x are distinct.
  const start = new Map<number, { x: number; y: number; w: number }>();
  for (const l of labels) {
    const b = start.get(l.confidence) ?? { x: l.confidence, y: 0, w: 0 };
    b.y = (b.y * b.w + (l.correct ? 1 : 0)) / (b.w + 1);
    b.w++;
    start.set(l.confidence, b);
  }
  // Pool adjacent violators: blocks of pooled labels, with mean confidence x, mean correctness y.
  const blocks: { x: number; y: number; w: number }[] = [];
  for (const next of [...start.values()].sort((a, b) => a.x - b.x)) {
    blocks.push({ ...next });
    while (blocks.length > 1 && blocks[blocks.length - 2].y >= blocks[blocks.length - 1].y) {
      const b = blocks.pop()!;
      const a = blocks.pop()!;
      const w = a.w + b.w;
      blocks.push({ x: (a.x * a.w + b.x * b.w) / w, y: (a.y * a.w + b.y * b.w) / w, w });
    }
  }
  return { points: blocks.map((b) => [round(b.x), round(b.y)]), labels: labels.length };
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/** The calibrated value of a model confidence. */
export function calibrate(fit: CalibrationFit, confidence: number): number {
  const p = fit.points;
  if (p.length === 0) return confidence;
  if (confidence <= p[0][0]) return p[0][1];
  for (let i = 1; i < p.length; i++) {
    if (confidence <= p[i][0]) {
      const [x0, y0] = p[i - 1];
      const [x1, y1] = p[i];
      return round(x1 === x0 ? y1 : y0 + ((confidence - x0) / (x1 - x0)) * (y1 - y0));
    }
  }
  return p[p.length - 1][1];
}

/**
 * The model confidence below which the calibrated value is below `threshold`: the least c with
 * calibrate(c) ≥ threshold. 0 when every confidence reaches it; above 1 when none does.
 */
export function rawThresholdFor(fit: CalibrationFit, threshold: number): number {
  const p = fit.points;
  if (p.length === 0) return threshold;
  if (p[0][1] >= threshold) return 0;
  for (let i = 1; i < p.length; i++) {
    const [x0, y0] = p[i - 1];
    const [x1, y1] = p[i];
    if (y1 >= threshold) return x1 === x0 || y1 === y0 ? x1 : x0 + ((threshold - y0) / (y1 - y0)) * (x1 - x0);
  }
  return 2;
}
