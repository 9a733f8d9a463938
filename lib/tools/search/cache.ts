import type { SearchCache, SearchHit } from "../types.ts";

// Search results are cached per workspace, provider, result count, page and normalised query, so
// rerunning a column (or many rows asking the same question) does not pay for the same search
// twice, and one workspace's queries never answer another's.

export function normalizeQuery(query: string): string {
  return query.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

// Page 1 keeps the key it had before searches had pages, so entries cached then stay valid; a
// later page rides on the count field ("10p2"), which a page-1 key (digits only) never matches.
export function searchCacheKey(
  workspaceId: string,
  provider: string,
  query: string,
  maxResults: number,
  page = 1,
): string {
  const slot = page === 1 ? `${maxResults}` : `${maxResults}p${page}`;
  return `${workspaceId}:${provider}:${slot}:${normalizeQuery(query)}`;
}

/** In-process cache with TTL and a size bound (oldest entry evicted first). */
export class MemorySearchCache implements SearchCache {
  private readonly entries = new Map<string, { hits: SearchHit[]; expiresAt: number }>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(maxEntries = 1_000, now: () => number = Date.now) {
    this.maxEntries = maxEntries;
    this.now = now;
  }

  async get(key: string): Promise<SearchHit[] | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.hits;
  }

  async set(key: string, hits: SearchHit[], ttlSeconds: number): Promise<void> {
    if (ttlSeconds <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { hits, expiresAt: this.now() + ttlSeconds * 1000 });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
