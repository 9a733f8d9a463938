import type { Principal } from "./principal.ts";

// Valid API keys are remembered for a moment, so that a busy client does not cost a key lookup
// per request. A key revoked through this process is forgotten at once; another process (the CLI,
// a second server on PostgreSQL) sees a revocation within TTL_MS. Unknown keys are never cached.

export const KEY_CACHE_TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  principal: Principal;
  lastUsedAt: number;
  until: number;
  /** When the key expires (ms), or null. */
  expiresAt: number | null;
}

// One cache per database handle. It lives on globalThis because Next.js bundles each route
// separately: the revoking route and the reading routes must see the same cache.
const SLOT = Symbol.for("cellwright.apiKeyCache");
const caches: WeakMap<object, Map<string, Entry>> = ((globalThis as Record<symbol, unknown>)[SLOT] ??=
  new WeakMap()) as WeakMap<object, Map<string, Entry>>;

function cacheOf(owner: object): Map<string, Entry> {
  let c = caches.get(owner);
  if (!c) caches.set(owner, (c = new Map()));
  return c;
}

export function cachedKey(owner: object, hash: string, now = Date.now()): Entry | undefined {
  const c = cacheOf(owner);
  const e = c.get(hash);
  if (e && e.until > now) return e;
  if (e) c.delete(hash);
  return undefined;
}

export function rememberKey(
  owner: object,
  hash: string,
  principal: Principal,
  lastUsedAt: number,
  now = Date.now(),
  expiresAt: number | null = null,
): void {
  const c = cacheOf(owner);
  if (c.size >= MAX_ENTRIES) c.clear();
  c.set(hash, { principal, lastUsedAt, until: now + KEY_CACHE_TTL_MS, expiresAt });
}

/** Drops a key (by id) from the cache of this database handle, e.g. right after revoking it. */
export function forgetKey(owner: object, keyId: string): void {
  const c = cacheOf(owner);
  for (const [hash, e] of c) if (e.principal.keyId === keyId) c.delete(hash);
}
