import { describe, expect, it } from "vitest";
import { chunksByBytes } from "../../lib/db/statement-chunks.ts";

describe("chunksByBytes", () => {
  const len = (s: string) => s.length;

  it("keeps every item once, in order, in slices within the budget", () => {
    const items = Array.from({ length: 50 }, (_, i) => "x".repeat((i * 7) % 13));
    const chunks = [...chunksByBytes(items, len, 20)];
    expect(chunks.flat()).toEqual(items);
    for (const c of chunks) expect(c.length === 1 || c.reduce((n, s) => n + s.length, 0) <= 20).toBe(true);
    expect(chunks.length).toBeGreaterThan(1);
  });

  it("gives an item larger than the budget a statement of its own", () => {
    expect([...chunksByBytes(["ab", "x".repeat(100), "cd"], len, 10)]).toEqual([["ab"], ["x".repeat(100)], ["cd"]]);
  });

  it("makes one statement of small items, and none of no items", () => {
    expect([...chunksByBytes(["a", "b", "c"], len, 10)]).toEqual([["a", "b", "c"]]);
    expect([...chunksByBytes([], len, 10)]).toEqual([]);
  });
});
