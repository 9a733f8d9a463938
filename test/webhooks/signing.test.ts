import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { generateSecret, liveSecrets, secretKey, signatureHeader, signedHeaders } from "../../lib/webhooks/signing.ts";
import { MAX_RETRY_AFTER_MS, nextRetryDelayMs, parseRetryAfter } from "../../lib/webhooks/retry.ts";

describe("signing (Standard Webhooks)", () => {
  it("makes whsec_ secrets of 32 random bytes", () => {
    const a = generateSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(secretKey(a)).toHaveLength(32);
    expect(generateSecret()).not.toBe(a);
  });

  it("signs exactly as the standardwebhooks package does, and it verifies", () => {
    const secret = generateSecret();
    const at = new Date("2026-11-22T10:00:00Z");
    const body = JSON.stringify({ type: "row.sheet.processed", data: { x: "é" } });
    const mine = signatureHeader([secret], "msg_1", at.getTime() / 1000, body);
    expect(mine).toBe(new Webhook(secret).sign("msg_1", at, body));
    const headers = signedHeaders([secret], "msg_1", body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("puts one signature per live secret, space-separated; each verifies alone", () => {
    const [current, previous] = [generateSecret(), generateSecret()];
    const headers = signedHeaders([current, previous], "msg_2", "{}");
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    for (const s of [current, previous]) expect(new Webhook(s).verify("{}", headers)).toEqual({});
    expect(() => new Webhook(generateSecret()).verify("{}", headers)).toThrow();
  });

  it("keeps the previous secret live only until its grace period ends", () => {
    const now = new Date("2026-11-22T10:00:00Z");
    const e = {
      secret: "whsec_new",
      previousSecret: "whsec_old",
      previousSecretExpiresAt: new Date(now.getTime() + 1000),
    };
    expect(liveSecrets(e, now)).toEqual(["whsec_new", "whsec_old"]);
    expect(liveSecrets(e, new Date(now.getTime() + 1000))).toEqual(["whsec_new"]);
    expect(liveSecrets({ ...e, previousSecret: null, previousSecretExpiresAt: null }, now)).toEqual(["whsec_new"]);
  });
});

describe("retry schedule", () => {
  const schedule = [0, 5_000, 300_000];

  it("follows the schedule with ±10% jitter, and stops when it is used up", () => {
    expect(nextRetryDelayMs({ schedule, attemptsMade: 1, random: () => 0.5 })).toBe(5_000);
    expect(nextRetryDelayMs({ schedule, attemptsMade: 1, random: () => 0 })).toBe(4_500);
    expect(nextRetryDelayMs({ schedule, attemptsMade: 2, random: () => 0.999999 })).toBe(330_000);
    expect(nextRetryDelayMs({ schedule, attemptsMade: 3 })).toBeNull();
    const spread = new Set(Array.from({ length: 50 }, () => nextRetryDelayMs({ schedule, attemptsMade: 1 })));
    expect(spread.size).toBeGreaterThan(1);
    expect(Math.min(...(spread as Set<number>))).toBeGreaterThanOrEqual(4_500);
    expect(Math.max(...(spread as Set<number>))).toBeLessThanOrEqual(5_500);
  });

  it("lets Retry-After push a retry later, never earlier, and caps it at a day", () => {
    expect(nextRetryDelayMs({ schedule, attemptsMade: 1, retryAfterMs: 60_000, random: () => 0.5 })).toBe(60_000);
    expect(nextRetryDelayMs({ schedule, attemptsMade: 1, retryAfterMs: 1_000, random: () => 0.5 })).toBe(5_000);
    expect(
      nextRetryDelayMs({ schedule, attemptsMade: 1, retryAfterMs: 10 * MAX_RETRY_AFTER_MS, random: () => 0.5 }),
    ).toBe(MAX_RETRY_AFTER_MS);
    // The budget is the budget: Retry-After does not buy an extra attempt.
    expect(nextRetryDelayMs({ schedule, attemptsMade: 3, retryAfterMs: 1_000 })).toBeNull();
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
