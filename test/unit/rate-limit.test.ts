import { describe, expect, it } from "vitest";
import { perKeyTokenBuckets } from "../../lib/engine/rate-limit.ts";
import { backoffMs } from "../../lib/engine/backoff.ts";
import { waitFor } from "../support/wait.ts";

describe("per-provider token buckets", () => {
  it("lets a burst of a tenth of the minute through, then paces, per key", async () => {
    let t = 0;
    let clockReads = 0;
    const limiter = perKeyTokenBuckets(600, () => (clockReads++, t)); // 10/s, burst 60
    for (let i = 0; i < 60; i++) await limiter.acquire("openai");
    let granted = false;
    const readsBefore = clockReads;
    const next = limiter.acquire("openai").then(() => (granted = true));
    // The bucket has looked at the clock for this request (and found no token) before we check.
    await waitFor(() => clockReads > readsBefore, "the bucket to check the clock", 2_000, 1);
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
