import { describe, expect, it } from "vitest";
import { creditsPerFound, suggestOrder, type ObservedStep } from "../../lib/domain/fill/step-order.ts";

// The order estimate on its own: expected credits per value found under independent steps, the
// cheapest order by enumeration (and by the credits-per-hit rule past 8 movable steps), AI steps kept.

const step = (calls: number, found: number, credits: number, pinned = false): ObservedStep => ({
  calls,
  found,
  credits,
  pinned,
});

describe("creditsPerFound", () => {
  it("charges each step on the rows that reach it and divides by the rows any step finds", () => {
    // A: hit 1/4 at 4 a call; B: hit 1/2 at 1 a call. A then B: 4 + 0.75 × 1 over 1 − 0.75 × 0.5.
    const steps = [step(8, 2, 32), step(6, 3, 6)];
    expect(creditsPerFound(steps, [0, 1])).toBeCloseTo(4.75 / 0.625, 10);
    expect(creditsPerFound(steps, [1, 0])).toBeCloseTo((1 + 0.5 * 4) / 0.625, 10);
  });

  it("is null when no step ever found a value, and counts a step that never ran as free and fruitless", () => {
    expect(creditsPerFound([step(5, 0, 5), step(0, 0, 0)], [0, 1])).toBeNull();
    expect(creditsPerFound([step(4, 2, 4), step(0, 0, 0)], [1, 0])).toBeCloseTo(2, 10);
  });
});

describe("suggestOrder", () => {
  it("puts the cheaper step per hit first and reports the saving", () => {
    const steps = [step(8, 2, 32), step(6, 3, 6)];
    const r = suggestOrder(steps);
    expect(r.order).toEqual([1, 0]);
    expect(r.method).toBe("exhaustive");
    expect(r.current).toBeCloseTo(7.6, 10);
    expect(r.suggested).toBeCloseTo(4.8, 10);
    expect(r.saving).toBeCloseTo(1 - 4.8 / 7.6, 10);
  });

  it("keeps the current order, with no saving, when it is already the cheapest or ties", () => {
    expect(suggestOrder([step(6, 3, 6), step(8, 2, 32)])).toMatchObject({ order: [0, 1], saving: 0 });
    // Two identical steps: every order costs the same, so nothing moves.
    expect(suggestOrder([step(4, 2, 4), step(4, 2, 4)])).toMatchObject({ order: [0, 1], saving: 0 });
  });

  it("keeps pinned (AI) steps in place and moves the others around them", () => {
    // The model (pinned, index 1) would be cheapest first; it stays second.
    const steps = [step(10, 1, 50), step(9, 9, 9, true), step(1, 1, 1)];
    const r = suggestOrder(steps);
    expect(r.order[1]).toBe(1);
    expect(r.order).toEqual([2, 1, 0]);
    expect(r.saving).toBeGreaterThan(0);
  });

  it("agrees with the credits-per-hit rule, and uses it past 8 movable steps", () => {
    // Pseudo-random steps (a fixed linear congruential sequence): enumeration finds what the rule sorts.
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 20; trial++) {
      const steps = Array.from({ length: 6 }, () => {
        const calls = 20 + Math.floor(next() * 80);
        return step(calls, Math.floor(next() * calls), Math.floor(next() * 10 * calls));
      });
      const r = suggestOrder(steps);
      const ratio = (i: number) =>
        steps[i].found === 0 ? Number.POSITIVE_INFINITY : steps[i].credits / steps[i].found;
      const rule = [0, 1, 2, 3, 4, 5].sort((a, b) => (ratio(a) === ratio(b) ? 0 : ratio(a) < ratio(b) ? -1 : 1));
      expect(r.suggested).toBeCloseTo(creditsPerFound(steps, rule) as number, 9);
    }
    const ten = Array.from({ length: 10 }, (_, i) => step(10, 1 + i, 10 * (10 - i)));
    const r = suggestOrder(ten);
    expect(r.method).toBe("ratio");
    expect(r.order).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(r.saving).toBeGreaterThan(0);
  });

  it("gives no estimate without history", () => {
    expect(suggestOrder([step(0, 0, 0), step(0, 0, 0)])).toEqual({
      order: [0, 1],
      current: null,
      suggested: null,
      saving: null,
      method: "exhaustive",
    });
  });
});
