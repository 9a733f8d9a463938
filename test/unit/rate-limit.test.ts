import { describe, expect, it } from "vitest";
import { perKeyTokenBuckets } from "../../lib/engine/rate-limit.ts";
import { backoffMs } from "../../lib/engine/backoff.ts";

describe("per-provider token buckets", () => {
  it("lets a burst of a tenth of the minute through, then paces, per key", async () => {
    let t = 0;
    const limiter = perKeyTokenBuckets(600, () => t); // 10/s, burst 60
    for (let i = 0; i < 60; i++) await limiter.acquire("openai");
    let granted = false;
    const next = limiter.acquire("openai").then(() => (granted = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(granted).toBe(false);
    // Another provider has its own bucket.
    await limiter.acquire("anthropic");
    t += 100; // one token's worth of time
    await next;
    expect(granted).toBe(true);
  });

  it("is unlimited at 0", async () => {
    const limiter = perKeyTokenBuckets(0);
    for (let i = 0; i < 1000; i++) await limiter.acquire("openai");
  });
});

describe("backoff", () => {
  it("grows exponentially with jitter and never undercuts Retry-After", () => {
    expect(backoffMs(1, 1000, undefined, () => 0)).toBe(500);
    expect(backoffMs(3, 1000, undefined, () => 1)).toBe(4000);
    expect(backoffMs(1, 1000, 7000, () => 1)).toBe(7000);
    expect(backoffMs(30, 1000, undefined, () => 1)).toBe(60_000);
  });
});
