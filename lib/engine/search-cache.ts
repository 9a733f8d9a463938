import type { Tx } from "../db/database.ts";
import type { SearchCache, SearchHit } from "../tools/index.ts";

/** Search results cached in the database, so every process (and a restart) shares them. */
export function dbSearchCache(db: Tx): SearchCache {
  return {
    async get(key) {
      const hit = await db.searchCacheEntry.findUnique({ where: { key } });
      if (!hit || hit.expiresAt.getTime() < Date.now()) return undefined;
      return hit.results as unknown as SearchHit[];
    },
    async set(key, hits, ttlSeconds) {
      const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
      const results = hits as unknown as object;
      await db.searchCacheEntry.upsert({
        where: { key },
        create: { key, results, expiresAt },
        update: { results, expiresAt },
      });
    },
  };
}

/** Deletes up to `limit` entries that expired before `now` (SEARCH_CACHE_TTL_SECONDS); returns how many. */
export async function pruneSearchCache(db: Tx, now: Date, limit: number): Promise<number> {
  return db.$executeRawUnsafe(
    `DELETE FROM search_cache WHERE key IN (SELECT key FROM search_cache WHERE expires_at < $1 LIMIT $2)`,
    now,
    limit,
  );
}
