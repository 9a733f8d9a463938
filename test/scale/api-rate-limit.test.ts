import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { apiRateLimiter, databaseBuckets } from "../../lib/auth/api-rate-limit.ts";
import { freshPostgres, pgAdminUrl, skipMessage } from "./support.ts";

// The API's per-key bucket on PostgreSQL: two processes (two instances on their own connections
// to one database) draw from one bucket, so the limit holds however many web processes run.

skipMessage("shared API rate limit suite");

describe.skipIf(!pgAdminUrl)("API rate limit shared through PostgreSQL", () => {
  let target: { url: string; drop: () => Promise<void> };
  let a: Database;
  let b: Database;

  beforeAll(async () => {
    target = await freshPostgres();
    a = await openDatabase({ kind: "postgres", url: target.url, poolSize: 4 });
    b = await openDatabase({ kind: "postgres", url: target.url, poolSize: 4 });
    await migrate(a);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await target?.drop();
  });

  const outcomes = (results: PromiseSettledResult<unknown>[]) => results.filter((r) => r.status === "fulfilled").length;

  it("one burst for two processes, then the rate; keys apart", async () => {
    const limit = { perSecond: 1, burst: 10 };
    const one = apiRateLimiter(limit, databaseBuckets(a.prisma), 100);
    const two = apiRateLimiter(limit, databaseBuckets(b.prisma), 100);
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? one : two).consume("key-1")),
    );
    expect(outcomes(results)).toBe(10);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "rate_limited", details: { retryAfterSeconds: 1 } });
    // Another key is untouched.
    await one.consume("key-2");
    await two.consume("key-2");
    // A second later exactly one more request passes, whichever process asks.
    await new Promise((r) => setTimeout(r, 1_050));
    expect(outcomes(await Promise.allSettled([one.consume("key-1"), two.consume("key-1"), one.consume("key-1")]))).toBe(
      1,
    );
  });

  it("leases a tenth of a second's tokens at once, and never more than the bucket", async () => {
    const limit = { perSecond: 100, burst: 25 };
    const one = apiRateLimiter(limit, databaseBuckets(a.prisma), 100);
    const two = apiRateLimiter(limit, databaseBuckets(b.prisma), 100);
    let served = 0;
    for (let i = 0; i < 40; i++) {
      try {
        await (i % 2 ? one : two).consume("busy");
        served++;
      } catch {
        // refused past the burst
      }
    }
    // 25 in the bucket plus what refilled meanwhile (100 a second); leases lose tokens, never add them.
    expect(served).toBeGreaterThanOrEqual(20);
    expect(served).toBeLessThanOrEqual(40);
    const [row] = await a.prisma.$queryRawUnsafe<{ tokens: number }[]>(
      `SELECT tokens FROM api_rate_buckets WHERE key_id = 'busy'`,
    );
    expect(Number(row.tokens)).toBeGreaterThanOrEqual(0);
  });
});
