import type { Tx } from "../db/database.ts";
import { appError } from "../errors.ts";
import type { Principal } from "./principal.ts";
import { isKeyScope, KEY_SCOPES, type KeyScope } from "./permissions.ts";
import { type ApiKeyView, insertApiKey, keyView, keyViews, revokeApiKey } from "./api-keys.ts";

// Keys made by a person or by another key: never more than their creator. A key's scopes, bases,
// expiry and daily credit cap each lie within the creator's; what is not asked for is inherited.

export interface KeyRequest {
  name: string;
  scopes?: readonly string[];
  baseIds?: readonly string[];
  expiresAt?: string;
  dailyCreditCap?: number;
}

const refuse = (what: string, message: string, details: Record<string, unknown>) =>
  appError("cannot_grant", `${message} (${what}).`, { ...details, field: what });

/** Makes a key for the caller within the caller's own reach (403 cannot_grant naming what is beyond it). */
export async function createKeyFor(tx: Tx, auth: Principal, req: KeyRequest, now = new Date()) {
  const scopes = grantScopes(auth, req.scopes);
  const baseIds = await grantBases(tx, auth, req.baseIds);
  const expiresAt = await grantExpiry(tx, auth, req.expiresAt, now);
  const dailyCreditCap = grantCap(auth, req.dailyCreditCap);
  return insertApiKey(tx, auth.workspaceId, {
    name: req.name,
    scopes,
    baseIds,
    expiresAt,
    dailyCreditCap,
    // A key's creator is the person behind the caller, so that leaving the workspace stops every key
    // down the chain; null only when the caller is a workspace key.
    createdByUserId: auth.userId,
    createdByKeyId: auth.keyId,
  });
}

function grantScopes(auth: Principal, asked: readonly string[] | undefined): KeyScope[] {
  const held = KEY_SCOPES.filter((s) => auth.permissions.has(s));
  if (asked === undefined) return held;
  for (const s of asked) {
    if (!isKeyScope(s) || !auth.permissions.has(s))
      throw refuse("scopes", `The caller does not hold the ${s} scope (role ${auth.role})`, { scope: s });
  }
  return [...new Set(asked as KeyScope[])].sort();
}

async function grantBases(tx: Tx, auth: Principal, asked: readonly string[] | undefined): Promise<string[]> {
  if (asked === undefined || asked.length === 0) {
    // "Every base" from a caller limited to some means the caller's bases.
    if (asked?.length === 0 && auth.baseIds !== null)
      throw refuse("baseIds", "The caller is limited to some bases; name them", { baseIds: auth.baseIds });
    return auth.baseIds ? [...auth.baseIds] : [];
  }
  const ids = [...new Set(asked)];
  const outside = auth.baseIds === null ? [] : ids.filter((id) => !auth.baseIds?.includes(id));
  if (outside.length > 0)
    throw refuse("baseIds", `The caller may not reach base ${outside[0]}`, { baseId: outside[0] });
  const found = await tx.base.findMany({
    where: { id: { in: ids }, workspaceId: auth.workspaceId },
    select: { id: true },
  });
  const missing = ids.filter((id) => !found.some((b) => b.id === id));
  if (missing.length > 0) throw appError("base_not_found", `No base "${missing[0]}" in this workspace.`);
  return ids;
}

async function grantExpiry(tx: Tx, auth: Principal, asked: string | undefined, now: Date): Promise<Date | null> {
  const own = auth.keyId
    ? ((await tx.apiKey.findUnique({ where: { id: auth.keyId }, select: { expiresAt: true } }))?.expiresAt ?? null)
    : null;
  if (asked === undefined) return own;
  const at = new Date(asked);
  if (Number.isNaN(at.getTime()) || at.getTime() <= now.getTime())
    throw appError("validation_failed", "expiresAt must be a date-time in the future.", { field: "expiresAt" });
  if (own && at.getTime() > own.getTime())
    throw refuse("expiresAt", `The calling key expires at ${own.toISOString()}; a key it makes cannot outlive it`, {
      expiresAt: own.toISOString(),
    });
  return at;
}

function grantCap(auth: Principal, asked: number | undefined): number | null {
  const own = auth.dailyCreditCap;
  if (asked === undefined) return own;
  if (own !== null && asked > own)
    throw refuse("dailyCreditCap", `The calling key may spend at most ${own} credits a day`, { dailyCreditCap: own });
  return asked;
}

/** The keys a caller may see and revoke: every key with keys:manage; otherwise those it made. */
function reach(auth: Principal) {
  if (auth.permissions.has("keys:manage")) return { workspaceId: auth.workspaceId };
  if (auth.keyId) return { workspaceId: auth.workspaceId, createdByKeyId: auth.keyId };
  // A user's session: the keys the user made, in person or through their keys.
  return { workspaceId: auth.workspaceId, createdByUserId: auth.userId ?? "\u0000" };
}

export async function listKeysFor(tx: Tx, auth: Principal): Promise<ApiKeyView[]> {
  const rows = await tx.apiKey.findMany({ where: reach(auth), orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return keyViews(tx, rows);
}

async function findOwn(tx: Tx, auth: Principal, keyId: string) {
  const key = await tx.apiKey.findFirst({ where: { ...reach(auth), id: keyId } });
  if (!key) throw appError("api_key_not_found");
  return key;
}

/** Revokes a key the caller may reach (404 api_key_not_found for any other). */
export async function revokeKeyFor(tx: Tx, auth: Principal, keyId: string): Promise<ApiKeyView> {
  await findOwn(tx, auth, keyId);
  return revokeApiKey(tx, auth.workspaceId, keyId);
}

/** Renames a key or changes its daily cap; a capped caller cannot lift or raise a cap past its own. */
export async function updateKeyFor(
  tx: Tx,
  auth: Principal,
  keyId: string,
  patch: { name?: string; dailyCreditCap?: number | null },
): Promise<ApiKeyView> {
  await findOwn(tx, auth, keyId);
  if (patch.dailyCreditCap !== undefined && auth.dailyCreditCap !== null) {
    if (patch.dailyCreditCap === null || patch.dailyCreditCap > auth.dailyCreditCap)
      throw refuse("dailyCreditCap", `The calling key may spend at most ${auth.dailyCreditCap} credits a day`, {
        dailyCreditCap: auth.dailyCreditCap,
      });
  }
  const row = await tx.apiKey.update({
    where: { id: keyId },
    data: {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.dailyCreditCap !== undefined ? { dailyCreditCap: patch.dailyCreditCap } : {}),
    },
  });
  return keyView(tx, row);
}
