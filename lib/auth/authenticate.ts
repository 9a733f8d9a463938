import { timingSafeEqual } from "node:crypto";
import { appError } from "../errors.ts";
import { hashKey } from "./api-keys.ts";
import type { Runtime } from "../runtime.ts";
import { assertSameOrigin, sessionTokenOf } from "./session-cookie.ts";
import { principalForSession } from "./session.ts";

export interface Principal {
  workspaceId: string;
  keyId: string;
}

// last_used_at is a hint, not an audit log: writing it on every request would cost a write per
// read, so it is refreshed at most once a minute per key.
const TOUCH_INTERVAL_MS = 60_000;

/** X-API-Key, or else the browser's session cookie (whose writes must come from this site). */
export async function authenticate(rt: Runtime, req: Request): Promise<Principal> {
  const key = req.headers.get("x-api-key");
  if (key) return principalForKey(rt, key);
  const token = sessionTokenOf(req);
  if (!token) throw appError("missing_api_key");
  assertSameOrigin(req);
  return principalForSession(rt, token);
}

export async function principalForKey(rt: Runtime, key: string): Promise<Principal> {
  const hash = hashKey(key);
  const row = await rt.db.prisma.apiKey.findUnique({
    where: { hash },
    select: { id: true, workspaceId: true, hash: true, revokedAt: true, lastUsedAt: true },
  });
  if (!row || row.revokedAt || !safeEqual(row.hash, hash)) throw appError("invalid_api_key");
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await rt.db.prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  return { workspaceId: row.workspaceId, keyId: row.id };
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
