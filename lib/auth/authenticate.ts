import { timingSafeEqual } from "node:crypto";
import { appError } from "../errors.ts";
import { hashKey } from "./api-keys.ts";
import { revokeKeyFor, updateKeyFor } from "./scoped-keys.ts";
import { cachedKey, forgetKey, rememberKey } from "./key-cache.ts";
import type { Runtime } from "../runtime.ts";
import { assertSameOrigin, sessionTokenOf } from "./session-cookie.ts";
import { principalForSession } from "./session.ts";
import type { Principal } from "./principal.ts";
import { KEY_SELECT, type KeyRow, keyPrincipal } from "./key-principal.ts";

export type { Principal };

// last_used_at is a hint, not an audit log: writing it on every request would cost a write per
// read, so it is refreshed at most once a minute per key.
const TOUCH_INTERVAL_MS = 60_000;

/** X-API-Key, or else the browser's session cookie (whose writes must come from this site). */
export async function authenticate(rt: Runtime, req: Request): Promise<Principal> {
  const key = req.headers.get("x-api-key");
  if (key) return principalForKey(rt, key);
  const token = sessionTokenOf(req);
  if (!token) throw appError("missing_api_key");
  assertSameOrigin(req, rt.config.trustProxy);
  return principalForSession(rt, token);
}

export async function principalForKey(rt: Runtime, key: string): Promise<Principal> {
  const hash = hashKey(key);
  const now = Date.now();
  const cached = cachedKey(rt.db, hash, now);
  if (cached && now - cached.lastUsedAt <= TOUCH_INTERVAL_MS && !(cached.expiresAt !== null && cached.expiresAt <= now))
    return cached.principal;
  const [row] = await rt.db.prisma.$queryRawUnsafe<KeyRow[]>(`${KEY_SELECT} WHERE k.hash = $1`, hash);
  if (!row || !safeEqual(row.hash, hash)) throw appError("invalid_api_key");
  const principal = keyPrincipal(row, now);
  let lastUsedAt = row.last_used_at ? new Date(row.last_used_at).getTime() : 0;
  if (now - lastUsedAt > TOUCH_INTERVAL_MS) {
    await rt.db.prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } });
    lastUsedAt = now;
  }
  rememberKey(rt.db, hash, principal, lastUsedAt, now, row.expires_at ? new Date(row.expires_at).getTime() : null);
  return principal;
}

/** Revokes a key the caller may reach and forgets it at once in this process. */
export async function revokeKey(rt: Runtime, auth: Principal, keyId: string) {
  const view = await revokeKeyFor(rt.db.prisma, auth, keyId);
  forgetKey(rt.db, view.id);
  return view;
}

/** Renames a key or changes its cap; the cached principal is dropped so the new cap counts at once. */
export async function updateKey(
  rt: Runtime,
  auth: Principal,
  keyId: string,
  patch: { name?: string; dailyCreditCap?: number | null },
) {
  const view = await rt.db.prisma.$transaction((tx) => updateKeyFor(tx, auth, keyId, patch));
  forgetKey(rt.db, view.id);
  return view;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
