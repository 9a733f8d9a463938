import type { Tx } from "../db/database.ts";
import { appError } from "../errors.ts";

// The per-key request limit of the API (API_RATE_LIMIT requests a second, bursts of
// API_RATE_BURST): one token bucket per API key, shared by the browser sessions made from it.
//
// Where the buckets live is chosen once in createRuntime: in memory when one process owns the
// database, in `api_rate_buckets` when processes share a PostgreSQL. There, a process takes tokens
// in small leases (a tenth of a second's worth at most), so the common request costs no round-trip
// and the shared limit still holds: a token is spent once, by whoever leased it. Unused leased
// tokens lapse after LEASE_TTL_MS, which only ever makes the limit stricter.

export interface ApiRateLimit {
  /** Tokens refilled per second; 0 turns the limit off. */
  perSecond: number;
  burst: number;
}

/** Takes up to `want` tokens from a key's bucket; `available` is what was left before taking. */
export type BucketTake = (
  keyId: string,
  want: number,
  limit: ApiRateLimit,
) => Promise<{ granted: number; available: number }>;

export interface RateDecision {
  remaining: number;
  /** Seconds until a token is back; 0 when the request was allowed. */
  retryAfterSeconds: number;
}

export interface ApiRateLimiter {
  readonly limit: ApiRateLimit;
  /** Spends one token of the key's bucket, or throws rate_limited with the time to wait. */
  consume(keyId: string): Promise<RateDecision>;
}

const LEASE_TTL_MS = 1_000;

/** The buckets of one process, in memory (a database one process owns). */
export function memoryBuckets(now = () => Date.now()): BucketTake {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return async (keyId, want, { perSecond, burst }) => {
    const t = now();
    const b = buckets.get(keyId) ?? { tokens: burst, at: t };
    const available = Math.min(burst, b.tokens + ((t - b.at) / 1000) * perSecond);
    const granted = Math.min(want, Math.floor(available));
    buckets.set(keyId, { tokens: available - granted, at: t });
    return { granted, available };
  };
}

// Buckets shared through PostgreSQL: one atomic statement creates the row or refills it from the
// time stored (the database's clock, so processes need not agree on theirs) and takes what it can.
// What the bucket holds now: its stored tokens plus the refill since it was last written, at most
// the burst. In ON CONFLICT DO UPDATE every SET sees the old row, hence the one expression reused.
const AVAILABLE = `LEAST($2::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp() - b.updated_at)::float8) * $3::float8)`;
const GRANTED = (available: string) => `LEAST($4::int, floor(${available}))::int`;

export function databaseBuckets(db: Tx): BucketTake {
  return async (keyId, want, { perSecond, burst }) => {
    const rows = await db.$queryRawUnsafe<{ granted: number; available: number }[]>(
      `INSERT INTO api_rate_buckets AS b (key_id, tokens, granted, available, updated_at)
       VALUES ($1, $2::float8 - ${GRANTED("$2::float8")}, ${GRANTED("$2::float8")}, $2::float8, clock_timestamp())
       ON CONFLICT (key_id) DO UPDATE SET
         available = ${AVAILABLE}, granted = ${GRANTED(AVAILABLE)}, tokens = ${AVAILABLE} - ${GRANTED(AVAILABLE)}, updated_at = clock_timestamp()
       RETURNING granted, available`,
      keyId,
      burst,
      perSecond,
      want,
    );
    return { granted: Number(rows[0].granted), available: Number(rows[0].available) };
  };
}

/**
 * A limiter over `take`. `leaseSize` is how many tokens one take may grab for later requests of
 * this process (1 in memory, where a take is free).
 */
export function apiRateLimiter(
  limit: ApiRateLimit,
  take: BucketTake,
  leaseSize = 1,
  now = () => Date.now(),
): ApiRateLimiter {
  const leases = new Map<string, { tokens: number; until: number }>();
  const lease = Math.max(1, Math.min(leaseSize, Math.floor(limit.perSecond / 10)));
  return {
    limit,
    async consume(keyId) {
      if (limit.perSecond <= 0) return { remaining: limit.burst, retryAfterSeconds: 0 };
      const held = leases.get(keyId);
      if (held && held.tokens > 0 && held.until > now()) {
        held.tokens--;
        return { remaining: held.tokens, retryAfterSeconds: 0 };
      }
      const { granted, available } = await take(keyId, lease, limit);
      if (granted === 0) {
        const retryAfterSeconds = Math.max(1, Math.ceil((1 - available) / limit.perSecond));
        throw appError(
          "rate_limited",
          `Too many requests for this API key (at most ${limit.perSecond} a second, bursts of ${limit.burst}); retry in ${retryAfterSeconds} s.`,
          {
            retryAfterSeconds,
            limit: limit.perSecond,
            burst: limit.burst,
          },
        );
      }
      leases.set(keyId, { tokens: granted - 1, until: now() + LEASE_TTL_MS });
      return { remaining: Math.floor(available - 1), retryAfterSeconds: 0 };
    },
  };
}

/** The IETF draft's RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(limit: ApiRateLimit, remaining: number): Record<string, string> {
  const window = Math.max(1, Math.ceil(limit.burst / limit.perSecond));
  const untilFull = Math.max(0, Math.ceil((limit.burst - remaining) / limit.perSecond));
  return {
    "ratelimit-policy": `"burst";q=${limit.burst};w=${window}`,
    ratelimit: `"burst";r=${Math.max(0, remaining)};t=${untilFull}`,
  };
}
