import { describe, expect, it } from "vitest";
import type { ColumnView } from "../../components/data/types";
import { plainText } from "../../components/grid/cells/grid-cell";
import { assignSlots } from "../../components/grid/table/use-row-window";

describe("render slots", () => {
  it("numbers the first rows in order", () => {
    const { slots, order } = assignSlots(new Map(), ["a", "b", "c"]);
    expect([...slots]).toEqual([
      ["a", 0],
      ["b", 1],
      ["c", 2],
    ]);
    expect(order).toEqual([
      { at: 0, slot: 0 },
      { at: 1, slot: 1 },
      { at: 2, slot: 2 },
    ]);
  });

  it("keeps the slot of a row that stays and gives a leaving row's slot to an entering one", () => {
    const first = assignSlots(new Map(), ["a", "b", "c"]).slots;
    // One row down: a leaves, d enters.
    const { slots, order } = assignSlots(first, ["b", "c", "d"]);
    expect(slots.get("b")).toBe(1);
    expect(slots.get("c")).toBe(2);
    expect(slots.get("d")).toBe(0);
    // Rendered in slot order, so the elements keep their places: d (list position 2) first.
    expect(order.map((o) => o.at)).toEqual([2, 0, 1]);
  });

  it("reuses every slot on a leap, and a row kept across a smaller window keeps its slot", () => {
    const first = assignSlots(new Map(), ["a", "b", "c", "d"]).slots;
    const leap = assignSlots(first, ["w", "x", "y", "z"]).slots;
    expect([...leap.values()].sort()).toEqual([0, 1, 2, 3]);
    const smaller = assignSlots(leap, ["y", "z"]).slots;
    expect(smaller.get("y")).toBe(leap.get("y"));
    expect(smaller.get("z")).toBe(leap.get("z"));
  });
});

describe("text cells", () => {
  const column = (type: string, isAiEnabled = false) => ({ type, isAiEnabled }) as ColumnView;

  it("hold their text themselves when they show nothing else", () => {
    expect(plainText(column("short-text"), { value: "Acme" }, 0.5)).toBe("Acme");
    expect(plainText(column("number"), { value: "42" }, 0.5)).toBe("42");
    expect(plainText(column("short-text"), undefined, 0.5)).toBe("");
    expect(plainText(column("url"), { value: "" }, 0.5)).toBe("");
  });

  it("leave styled kinds, statuses and marks to the cell's content", () => {
    expect(plainText(column("url"), { value: "https://a.example" }, 0.5)).toBeNull();
    expect(plainText(column("checkbox"), { value: "true" }, 0.5)).toBeNull();
    expect(plainText(column("select"), { value: "Open" }, 0.5)).toBeNull();
    expect(plainText(column("short-text", true), { value: "", status: "running" }, 0.5)).toBeNull();
    expect(
      plainText(
        column("short-text", true),
        { value: "x", status: "done", metadata: { sources: null, additionalDetails: null, confidenceScore: 0.2 } },
        0.5,
      ),
    ).toBeNull();
    expect(plainText(column("short-text"), { value: "x", stale: true }, 0.5)).toBeNull();
  });
});
