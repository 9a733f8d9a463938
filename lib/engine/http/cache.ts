import type { Tx } from "../../db/database.ts";

// Answers of HTTP columns by resolved request (its hash: secrets never appear in the key), so a
// re-run or a repeated miss calls the provider once per TTL. Shared by every process.

export interface CachedAnswer {
  status: number;
  /** The answer's JSON text, secret values redacted; "" when it was empty. */
  text: string;
}

export interface HttpCache {
  get(key: string): Promise<CachedAnswer | undefined>;
  set(key: string, answer: CachedAnswer, ttlSeconds: number): Promise<void>;
}

export function dbHttpCache(db: Tx): HttpCache {
  return {
    async get(key) {
      const [hit] = await db.$queryRawUnsafe<{ status: number; body: string | null }[]>(
        `SELECT status, body::text AS body FROM http_cache WHERE key = $1 AND expires_at > now()`,
        key,
      );
      return hit ? { status: hit.status, text: hit.body ?? "" } : undefined;
    },
    async set(key, answer, ttlSeconds) {
      await db.$executeRawUnsafe(
        `INSERT INTO http_cache (key, status, body, expires_at)
         VALUES ($1, $2, $3::jsonb, now() + make_interval(secs => $4))
         ON CONFLICT (key) DO UPDATE SET status = excluded.status, body = excluded.body, expires_at = excluded.expires_at`,
        key,
        answer.status,
        answer.text === "" ? null : answer.text,
        ttlSeconds,
      );
    },
  };
}

/** Deletes up to `limit` expired answers; returns how many. */
export async function pruneHttpCache(db: Tx, now: Date, limit: number): Promise<number> {
  return db.$executeRawUnsafe(
    `DELETE FROM http_cache WHERE key IN (SELECT key FROM http_cache WHERE expires_at < $1 LIMIT $2)`,
    now,
    limit,
  );
}
