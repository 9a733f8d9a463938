import type { Tx } from "../db/database.ts";
import type { RateLimiter } from "./rate-limit.ts";

/**
 * Token buckets shared by every process on one PostgreSQL (scale-out): a row of
 * `rate_limit_buckets` per key, refilled and taken in one atomic statement, so AI_RPM holds
 * however many workers run. Same shape as the in-process buckets: `perMinute` a minute with
 * bursts up to a tenth of that.
 */
export function sharedTokenBuckets(db: Tx, perMinute: number, prefix = "ai"): RateLimiter {
  if (perMinute <= 0) return { acquire: async () => undefined };
  const capacity = Math.max(1, Math.floor(perMinute / 10));
  const perSecond = perMinute / 60;
  const chains = new Map<string, Promise<void>>();
  const created = new Set<string>();

  const takeOnce = async (name: string): Promise<number> => {
    if (!created.has(name)) {
      await db.$executeRawUnsafe(
        `INSERT INTO rate_limit_buckets (name, tokens, updated_at) VALUES ($1, $2, clock_timestamp()) ON CONFLICT (name) DO NOTHING`,
        name,
        capacity,
      );
      created.add(name);
    }
    // The row lock serialises takers; the refill is computed from the stored time, so processes
    // need no shared clock but the database's.
    const rows = await db.$queryRawUnsafe<{ available: number; taken: boolean }[]>(
      `WITH b AS (
         SELECT name, LEAST($2::float8, tokens + GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp() - updated_at)) * $3::float8) AS available
         FROM rate_limit_buckets WHERE name = $1 FOR UPDATE),
       t AS (
         UPDATE rate_limit_buckets r SET tokens = b.available - 1, updated_at = clock_timestamp()
         FROM b WHERE r.name = b.name AND b.available >= 1 RETURNING 1)
       SELECT b.available::float8 AS available, EXISTS (SELECT 1 FROM t) AS taken FROM b`,
      name,
      capacity,
      perSecond,
    );
    const row = rows[0];
    if (!row) {
      created.delete(name);
      return 50;
    }
    if (row.taken) return 0;
    return Math.max(5, Math.ceil(((1 - Number(row.available)) / perSecond) * 1000));
  };

  const take = async (name: string, signal?: AbortSignal) => {
    for (;;) {
      signal?.throwIfAborted();
      const wait = await takeOnce(name);
      if (wait === 0) return;
      // Other processes wait too; a little jitter keeps them from retrying in lockstep.
      await sleep(wait + Math.floor(Math.random() * 10), signal);
    }
  };

  return {
    // Callers of one process queue in order (first come, first served), and only the head of the
    // queue polls the database.
    acquire(key, signal) {
      const name = `${prefix}:${key}`;
      const next = (chains.get(name) ?? Promise.resolve()).then(() => take(name, signal));
      chains.set(name, next.catch(() => undefined));
      return next;
    },
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}
