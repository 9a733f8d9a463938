import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { apiRateLimiter, memoryBuckets } from "../../lib/auth/api-rate-limit.ts";
import { loadConfig } from "../../lib/config.ts";

// The per-key token bucket: bursts up to API_RATE_BURST, then API_RATE_LIMIT a second; past it a
// 429 from the catalog with Retry-After and the IETF draft's RateLimit fields. Each key (and the
// browser sessions made from it) has its own bucket.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ API_RATE_LIMIT: "1", API_RATE_BURST: "5" });
});
afterAll(() => app.close());

const list = (key?: string | null, headers?: Record<string, string>) =>
  app.api("GET", "/api/v1/bases", { ...(key === undefined ? {} : { key }), headers });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("one key", () => {
  it("allows a burst, then answers 429 with Retry-After and RateLimit fields, and refills", async () => {
    const allowed = [];
    for (let i = 0; i < 5; i++) allowed.push(await list());
    expect(allowed.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(allowed[0].headers.get("ratelimit-policy")).toBe('"burst";q=5;w=5');
    expect(allowed[4].headers.get("ratelimit")).toMatch(/^"burst";r=0;t=\d+$/);

    const refused = await list();
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(refused.body.error.message).toMatch(/at most 1 a second/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("ratelimit-policy")).toBe('"burst";q=5;w=5');
    expect(refused.headers.get("ratelimit")).toMatch(/^"burst";r=0;t=\d+$/);
    expect(refused.headers.get("content-type")).toMatch(/application\/json/);

    // 1 a second: after 1.1 s one more request passes, and only one.
    await sleep(1_100);
    expect((await list()).status).toBe(200);
    expect((await list()).status).toBe(429);
  });

  it("gives another key its own bucket, and a session shares its key's", async () => {
    // Empty key A's bucket (the test above left it nearly so).
    for (let i = 0; i < 10 && (await list()).status === 200; i++);
    expect((await list(app.keyB)).status).toBe(200);
    // A session made from key A draws from A's empty bucket (signing in itself is not limited).
    const signIn = await app.api("POST", "/api/v1/session", {
      key: null,
      body: { apiKey: app.keyA },
      headers: { origin: "http://localhost" },
    });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0];
    expect(cookie).toMatch(/=/);
    expect((await list(null, { cookie })).status).toBe(429);
    expect((await list(app.keyB)).status).toBe(200);
  });

  it("does not limit the public health check", async () => {
    for (let i = 0; i < 8; i++) expect((await app.api("GET", "/api/health", { key: null })).status).toBe(200);
  });
});

describe("configuration", () => {
  it("defaults to 50 a second with bursts of 200; API_RATE_LIMIT=0 turns it off", async () => {
    expect(loadConfig({}).apiRateLimit).toEqual({ perSecond: 50, burst: 200 });
    const off = apiRateLimiter(loadConfig({ API_RATE_LIMIT: "0", API_RATE_BURST: "1" }).apiRateLimit, memoryBuckets());
    for (let i = 0; i < 50; i++) await off.consume("k");
  });

  it("refills at the configured rate, never above the burst", async () => {
    let t = 0;
    const limiter = apiRateLimiter(
      { perSecond: 10, burst: 3 },
      memoryBuckets(() => t),
      1,
      () => t,
    );
    for (let i = 0; i < 3; i++) await limiter.consume("k");
    await expect(limiter.consume("k")).rejects.toMatchObject({
      code: "rate_limited",
      details: { retryAfterSeconds: 1 },
    });
    t += 250; // 2.5 tokens
    await limiter.consume("k");
    await limiter.consume("k");
    await expect(limiter.consume("k")).rejects.toMatchObject({ code: "rate_limited" });
    t += 60_000; // a minute idle still holds only the burst
    for (let i = 0; i < 3; i++) await limiter.consume("k");
    await expect(limiter.consume("k")).rejects.toMatchObject({ code: "rate_limited" });
  });
});
