import type { Tx } from "../db/database.ts";
import type { RateLimiter } from "./rate-limit.ts";

/**
 * Token buckets shared by every process on one PostgreSQL (scale-out): a row of
 * `rate_limit_buckets` per key, refilled and taken in one atomic statement, so AI_RPM holds
 * however many workers run. Same shape as the in-process buckets: `perMinute` a minute with
 * bursts up to a tenth of that. Within a process, waiters queue first come, first served, and
 * one statement takes tokens for as many of them as the bucket allows.
 */
export function sharedTokenBuckets(db: Tx, perMinute: number, prefix = "ai"): RateLimiter {
  if (perMinute <= 0) return { acquire: async () => undefined };
  const capacity = Math.max(1, Math.floor(perMinute / 10));
  const perSecond = perMinute / 60;
  const queues = new Map<string, Waiter[]>();
  const created = new Set<string>();

  /** Takes up to `want` tokens; returns how many it got and, if short, how long to wait. */
  const take = async (name: string, want: number): Promise<{ granted: number; waitMs: number }> => {
    if (!created.has(name)) {
      await db.$executeRawUnsafe(
        `INSERT INTO rate_limit_buckets (name, tokens, updated_at) VALUES ($1, $2, clock_timestamp()) ON CONFLICT (name) DO NOTHING`,
        name,
        capacity,
      );
      created.add(name);
    }
    // The row lock serialises takers; the refill is computed from the stored time, so processes
    // need no clock but the database's.
    const rows = await db.$queryRawUnsafe<{ available: number; granted: number }[]>(
      `WITH b AS (
         SELECT name, LEAST($2::float8, tokens + GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp() - updated_at)) * $3::float8) AS available
         FROM rate_limit_buckets WHERE name = $1 FOR UPDATE),
       g AS (SELECT name, available, LEAST($4::int, floor(available))::int AS granted FROM b),
       t AS (
         UPDATE rate_limit_buckets r SET tokens = g.available - g.granted, updated_at = clock_timestamp()
         FROM g WHERE r.name = g.name AND g.granted > 0 RETURNING 1)
       SELECT g.available::float8 AS available, g.granted FROM g LEFT JOIN t ON true`,
      name,
      capacity,
      perSecond,
      want,
    );
    const row = rows[0];
    if (!row) {
      created.delete(name);
      return { granted: 0, waitMs: 50 };
    }
    const left = Number(row.available) - row.granted;
    return {
      granted: row.granted,
      waitMs: row.granted >= want ? 0 : Math.max(5, Math.ceil(((1 - left) / perSecond) * 1000)),
    };
  };

  const drain = async (name: string, queue: Waiter[]) => {
    while (queue.length > 0) {
      let result: { granted: number; waitMs: number };
      try {
        result = await take(name, queue.length);
      } catch (e) {
        for (const w of queue.splice(0)) w.reject(e);
        break;
      }
      for (const w of queue.splice(0, result.granted)) w.resolve();
      // Other processes wait too; a little jitter keeps them from retrying in lockstep.
      if (queue.length > 0) await new Promise((r) => setTimeout(r, result.waitMs + Math.floor(Math.random() * 10)));
    }
    queues.delete(name);
  };

  return {
    acquire(key, signal) {
      const name = `${prefix}:${key}`;
      return new Promise<void>((resolve, reject) => {
        signal?.throwIfAborted();
        let queue = queues.get(name);
        const starting = !queue;
        if (!queue) queues.set(name, (queue = []));
        const q = queue;
        const waiter: Waiter = {
          resolve: () => (signal?.removeEventListener("abort", onAbort), resolve()),
          reject: (e) => (signal?.removeEventListener("abort", onAbort), reject(e)),
        };
        const onAbort = () => {
          const i = q.indexOf(waiter);
          if (i >= 0) q.splice(i, 1);
          reject(signal!.reason);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        q.push(waiter);
        if (starting) void drain(name, q);
      });
    },
  };
}

interface Waiter {
  resolve(): void;
  reject(e: unknown): void;
}
