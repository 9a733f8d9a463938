import { describe, expect, it } from "vitest";
import {
  isScaled,
  offsetShowing,
  rowsInView,
  scrollScale,
  toPhysical,
  toVirtual,
} from "../../components/grid/table/scroll-scale.ts";

// The grid's scaled scroll range: a body taller than the browser lays out is laid out at `max` px,
// and each scroll position stands for its share of the full height.

const ROW = 36;
const HEADER = 36;
const VIEW = 800;
const MAX = 15_000_000;

describe("scrollScale", () => {
  it("leaves a body that fits unscaled, every position its own", () => {
    const s = scrollScale(100_000, ROW, HEADER, MAX);
    expect(s).toEqual({ virtual: HEADER + 3_600_000, physical: HEADER + 3_600_000 });
    expect(isScaled(s)).toBe(false);
    for (const top of [0, 1, 12_345, 3_600_036 - VIEW]) {
      expect(toVirtual(s, top, VIEW)).toBe(top);
      expect(toPhysical(s, top, VIEW)).toBe(top);
    }
  });

  it("caps a million rows at max, beyond which Chromium lays out nothing", () => {
    const s = scrollScale(1_000_000, ROW, HEADER, MAX);
    expect(s).toEqual({ virtual: 36_000_036, physical: MAX });
    expect(isScaled(s)).toBe(true);
  });

  it("maps the scroll's ends onto the first and the last row, and the middle onto the middle", () => {
    const s = scrollScale(1_000_000, ROW, HEADER, MAX);
    const bottom = MAX - VIEW;
    expect(toVirtual(s, 0, VIEW)).toBe(0);
    expect(toVirtual(s, bottom, VIEW)).toBe(s.virtual - VIEW);
    expect(rowsInView(toVirtual(s, bottom, VIEW), VIEW, 1_000_000, ROW, HEADER).endIndex).toBe(999_999);
    expect(rowsInView(toVirtual(s, 0, VIEW), VIEW, 1_000_000, ROW, HEADER).startIndex).toBe(0);
    const middle = rowsInView(toVirtual(s, bottom / 2, VIEW), VIEW, 1_000_000, ROW, HEADER).startIndex;
    expect(Math.abs(middle - 500_000)).toBeLessThan(30);
    // Past the ends (an overscroll), the offset stays inside the body.
    expect(toVirtual(s, -50, VIEW)).toBe(0);
    expect(toVirtual(s, MAX, VIEW)).toBe(s.virtual - VIEW);
  });

  it("toPhysical inverts toVirtual, and one pixel of scrollbar is less than one row at a million", () => {
    const s = scrollScale(1_000_000, ROW, HEADER, MAX);
    for (const top of [0, 1, 777, 7_500_000, MAX - VIEW - 1, MAX - VIEW])
      expect(toPhysical(s, toVirtual(s, top, VIEW), VIEW)).toBeCloseTo(top, 6);
    expect(toVirtual(s, 1001, VIEW) - toVirtual(s, 1000, VIEW)).toBeLessThan(ROW);
  });
});

describe("rowsInView", () => {
  it("is the first row under the offset to the row that reaches the view's bottom", () => {
    expect(rowsInView(0, VIEW, 1_000, ROW, HEADER)).toEqual({ startIndex: 0, endIndex: 21 });
    expect(rowsInView(HEADER + 10 * ROW, VIEW, 1_000, ROW, HEADER)).toEqual({ startIndex: 10, endIndex: 32 });
    expect(rowsInView(HEADER + 10 * ROW + 1, VIEW, 1_000, ROW, HEADER).startIndex).toBe(10);
    expect(rowsInView(0, VIEW, 5, ROW, HEADER)).toEqual({ startIndex: 0, endIndex: 4 });
    expect(rowsInView(0, VIEW, 0, ROW, HEADER)).toEqual({ startIndex: 0, endIndex: -1 });
  });
});

describe("offsetShowing (align: auto)", () => {
  const s = scrollScale(1_000_000, ROW, HEADER, MAX);
  it("keeps the offset when the row is in view below the header", () => {
    const offset = HEADER + 500 * ROW;
    expect(offsetShowing(505, offset, VIEW, s, ROW, HEADER)).toBe(offset);
  });
  it("puts a row above the view under the header, and one below it at the bottom", () => {
    const offset = HEADER + 500 * ROW;
    expect(offsetShowing(499, offset, VIEW, s, ROW, HEADER)).toBe(HEADER + 499 * ROW - HEADER);
    expect(offsetShowing(600, offset, VIEW, s, ROW, HEADER)).toBe(HEADER + 601 * ROW - VIEW);
  });
  it("brings the last row to the bottom and the first to the top", () => {
    expect(offsetShowing(999_999, 0, VIEW, s, ROW, HEADER)).toBe(s.virtual - VIEW);
    expect(offsetShowing(0, 1_000_000, VIEW, s, ROW, HEADER)).toBe(0);
    const last = rowsInView(s.virtual - VIEW, VIEW, 1_000_000, ROW, HEADER);
    expect(last.endIndex).toBe(999_999);
  });
});
