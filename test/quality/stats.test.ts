import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  agreementOf,
  byConfidence,
  expectedCalibrationError,
  suggestedReviewThreshold,
} from "../../lib/domain/quality/stats.ts";
import { calibrate, fitIsotonic, rawThresholdFor } from "../../lib/domain/isotonic.ts";
import { answersMatch, textKey } from "../../lib/domain/evaluations/compare.ts";

// The arithmetic of column quality against figures worked out by hand, and the isotonic fit's
// promises (monotone, and a threshold on the calibrated value is one on the model's confidence).

const L = (confidence: number, correct: boolean) => ({ confidence, correct });

describe("agreement, buckets and calibration error", () => {
  // Bucket 0.9–1.0: 0.95 ✓, 0.95 ✓, 1.0 ✓, 0.9 ✗ → 3/4 agree, mean confidence 0.95.
  // Bucket 0.5–0.6: 0.5 ✓, 0.5 ✗ → 1/2, mean 0.5.
  // Bucket 0.3–0.4: 0.3 ✗ (0.3 × 10 is 3.0000000000000004: still the fourth tenth) → 0/1, mean 0.3.
  const labels = [L(0.95, true), L(0.95, true), L(1, true), L(0.9, false), L(0.5, true), L(0.5, false), L(0.3, false)];

  it("counts an edit as a disagreement", () => {
    expect(agreementOf(labels)).toBe(0.571); // 4 / 7
    expect(agreementOf([])).toBeNull();
  });

  it("buckets by tenths, leaving out empty ones", () => {
    expect(byConfidence(labels)).toEqual([
      { from: 0.3, to: 0.4, cells: 1, agreement: 0, confidence: 0.3 },
      { from: 0.5, to: 0.6, cells: 2, agreement: 0.5, confidence: 0.5 },
      { from: 0.9, to: 1, cells: 4, agreement: 0.75, confidence: 0.95 },
    ]);
  });

  it("weighs each bucket's gap by its share of the labels", () => {
    // (1/7)·|0 − 0.3| + (2/7)·|0.5 − 0.5| + (4/7)·|0.75 − 0.95| = 0.3/7 + 0.8/7 = 1.1/7 = 0.157
    expect(expectedCalibrationError(labels)).toBe(0.157);
    expect(expectedCalibrationError([])).toBeNull();
  });
});

describe("suggested review threshold", () => {
  it("is null under 30 labels", () => {
    expect(suggestedReviewThreshold(Array.from({ length: 29 }, () => L(0.9, true)))).toBeNull();
  });

  it("is the lowest confidence above which 90% agree", () => {
    // 10 wrong at 0.2, 5 right + 5 wrong at 0.6, 19 right + 1 wrong at 0.8, 10 right at 0.95.
    // t = 0.2: 34/50 = 0.68; t = 0.6: 34/40 = 0.85; t = 0.8: 29/30 = 0.967 ≥ 0.9.
    const labels = [
      ...Array.from({ length: 10 }, () => L(0.2, false)),
      ...Array.from({ length: 5 }, () => L(0.6, true)),
      ...Array.from({ length: 5 }, () => L(0.6, false)),
      ...Array.from({ length: 19 }, () => L(0.8, true)),
      L(0.8, false),
      ...Array.from({ length: 10 }, () => L(0.95, true)),
    ];
    expect(suggestedReviewThreshold(labels)).toBe(0.8);
  });

  it("is null when no threshold reaches 90%", () => {
    expect(suggestedReviewThreshold(Array.from({ length: 40 }, (_, i) => L(i / 40, i % 2 === 0)))).toBeNull();
  });
});

describe("isotonic calibration", () => {
  const labelsArb = fc.array(
    fc.record({ confidence: fc.integer({ min: 0, max: 100 }).map((n) => n / 100), correct: fc.boolean() }),
    { minLength: 1, maxLength: 200 },
  );

  it("pools violators: right at 0.2, wrong at 0.4 become one block of 0.5", () => {
    expect(fitIsotonic([L(0.2, true), L(0.4, false), L(0.9, true)]).points).toEqual([
      [0.3, 0.5],
      [0.9, 1],
    ]);
  });

  it("is monotone, within [0, 1], for any labels", () => {
    fc.assert(
      fc.property(
        labelsArb,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 20 }),
        (labels, probes) => {
          const fit = fitIsotonic(labels);
          const xs = fit.points.map((p) => p[0]);
          expect([...xs].sort((a, b) => a - b)).toEqual(xs);
          const sorted = [...probes].sort((a, b) => a - b);
          const ys = sorted.map((c) => calibrate(fit, c));
          for (let i = 1; i < ys.length; i++) expect(ys[i]).toBeGreaterThanOrEqual(ys[i - 1]);
          for (const y of ys) expect(y >= 0 && y <= 1).toBe(true);
        },
      ),
    );
  });

  it("turns a threshold on the calibrated value into one on the model's confidence", () => {
    fc.assert(
      fc.property(labelsArb, fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 1000 }), (labels, t, c) => {
        const fit = fitIsotonic(labels);
        const threshold = t / 100;
        const confidence = c / 1000;
        const raw = rawThresholdFor(fit, threshold);
        // Within rounding of the stored points (4 decimals).
        if (Math.abs(confidence - raw) > 1e-3) expect(confidence >= raw).toBe(calibrate(fit, confidence) >= threshold);
      }),
    );
  });
});

describe("comparing an answer with the verified value", () => {
  const col = (type: string, columnOptions: object = {}) => ({ type, columnOptions });

  it("compares by the column's type", () => {
    expect(answersMatch(col("number"), "1000", "1009.5")).toBe(true);
    expect(answersMatch(col("number"), "1000", "1011")).toBe(false);
    expect(answersMatch(col("date"), "2024-03-05", "2024-03-05T23:00:00Z")).toBe(true);
    expect(answersMatch(col("date"), "2024-03-05", "2024-03-06")).toBe(false);
    expect(answersMatch(col("checkbox"), "true", "yes")).toBe(true);
    expect(answersMatch(col("url"), "https://www.acme.com/", "http://acme.com")).toBe(true);
    expect(answersMatch(col("email"), "Ann@Acme.com", "ann@acme.com")).toBe(true);
    expect(answersMatch(col("short-text"), "Acme, Inc.", "  acme inc ")).toBe(true);
    expect(answersMatch(col("short-text"), "Acme", "Acme Corp")).toBe(false);
    expect(answersMatch(col("select", { options: ["B2B", "B2C"] }), "B2B", "B2C")).toBe(false);
  });

  it("normalises text by case, whitespace and punctuation, in any script", () => {
    expect(textKey("Ünïcode — Straße!")).toBe(textKey("ünïcode straße"));
  });
});
