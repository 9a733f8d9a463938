import { describe, expect, it } from "vitest";
import { newId, pooledRandomBytes, randomBase62 } from "../../lib/ids.ts";

describe("random ids", () => {
  it("hands out every pooled byte once: no two slices overlap across many refills of the pool", () => {
    const slices = Array.from({ length: 5_000 }, () => pooledRandomBytes(16));
    const seen = new Set(slices.map((b) => b.toString("hex")));
    expect(seen.size).toBe(slices.length);
    // Writing to one slice leaves the next one alone.
    const [a, b] = [pooledRandomBytes(8), pooledRandomBytes(8)];
    const before = b.toString("hex");
    a.fill(0);
    expect(b.toString("hex")).toBe(before);
  });

  it("serves a request larger than the pool", () => {
    expect(pooledRandomBytes(10_000)).toHaveLength(10_000);
  });

  it("makes base62 strings of the asked length with every symbol in use", () => {
    const text = Array.from({ length: 200 }, () => randomBase62(20)).join("");
    expect(text).toMatch(/^[0-9A-Za-z]{4000}$/);
    expect(new Set(text).size).toBe(62);
    expect(newId.cellAttempt()).toMatch(/^cellrun_[0-9A-Za-z]{20}$/);
  });
});
