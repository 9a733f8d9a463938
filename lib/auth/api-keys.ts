import { createHash } from "node:crypto";
import type { Tx } from "../db/database.ts";
import { newId } from "../ids.ts";
import { appError } from "../errors.ts";
import { assertBelow, QUOTAS } from "../domain/limits.ts";
import { KEY_SCOPES } from "./permissions.ts";
import { spentTodayByKey } from "../credits/key-cap.ts";

export const hashKey = (key: string) => createHash("sha256").update(key).digest("hex");

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  scopes: string[];
  /** The bases the key may reach; null: every base. */
  baseIds: string[] | null;
  expiresAt: string | null;
  dailyCreditCap: number | null;
  /** Credits the key's runs were charged since midnight UTC. */
  spentToday: number;
  createdBy: { type: "user" | "key" | "workspace"; id: string | null; name: string };
}

export type StoredKey = {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  scopes: string[];
  baseIds: string[];
  expiresAt: Date | null;
  dailyCreditCap: number | null;
  createdByUserId: string | null;
  createdByKeyId: string | null;
};

/** The API's views of these keys: who made each (the user's email, the key's name) and what each spent today. */
export async function keyViews(tx: Tx, keys: readonly StoredKey[]): Promise<ApiKeyView[]> {
  const userIds = [...new Set(keys.flatMap((k) => (k.createdByUserId ? [k.createdByUserId] : [])))];
  const keyIds = [...new Set(keys.flatMap((k) => (k.createdByKeyId ? [k.createdByKeyId] : [])))];
  const [users, creators, spent] = await Promise.all([
    userIds.length ? tx.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } }) : [],
    keyIds.length ? tx.apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, name: true } }) : [],
    spentTodayByKey(
      tx,
      keys.map((k) => k.id),
    ),
  ]);
  const emailOf = new Map(users.map((u) => [u.id, u.email]));
  const nameOf = new Map(creators.map((k) => [k.id, k.name]));
  return keys.map((k) => ({
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
    scopes: [...k.scopes].sort(),
    baseIds: k.baseIds.length > 0 ? [...k.baseIds] : null,
    expiresAt: k.expiresAt?.toISOString() ?? null,
    dailyCreditCap: k.dailyCreditCap,
    spentToday: spent.get(k.id) ?? 0,
    createdBy: createdBy(k, emailOf, nameOf),
  }));
}

// A key made by a user's session names the user; one made by a key names the key (and a key made
// by a key on behalf of a user still answers to that user: created_by_user_id).
function createdBy(k: StoredKey, emailOf: Map<string, string>, nameOf: Map<string, string>): ApiKeyView["createdBy"] {
  if (k.createdByKeyId) return { type: "key", id: k.createdByKeyId, name: nameOf.get(k.createdByKeyId) ?? "" };
  if (k.createdByUserId) return { type: "user", id: k.createdByUserId, name: emailOf.get(k.createdByUserId) ?? "" };
  return { type: "workspace", id: null, name: "workspace" };
}

export const keyView = async (tx: Tx, k: StoredKey) => (await keyViews(tx, [k]))[0];

export interface NewKey {
  name: string;
  scopes?: readonly string[];
  baseIds?: readonly string[];
  expiresAt?: Date | null;
  dailyCreditCap?: number | null;
  createdByUserId?: string | null;
  createdByKeyId?: string | null;
}

/** Stores a key as given (the rules of who may grant what are scoped-keys.ts'); the secret is returned once. */
export async function insertApiKey(tx: Tx, workspaceId: string, key: NewKey, secret = newId.apiKeySecret()) {
  // Revoked keys count too: they are kept for the record, and revoking is not a way around the cap.
  const count = await tx.apiKey.count({ where: { workspaceId } });
  assertBelow(count, QUOTAS.apiKeysPerWorkspace, `A workspace has at most ${QUOTAS.apiKeysPerWorkspace} API keys`);
  const row = await tx.apiKey.create({
    data: {
      id: newId.apiKey(),
      workspaceId,
      name: key.name,
      prefix: secret.slice(0, 7),
      hash: hashKey(secret),
      scopes: [...(key.scopes ?? KEY_SCOPES)],
      baseIds: [...(key.baseIds ?? [])],
      expiresAt: key.expiresAt ?? null,
      dailyCreditCap: key.dailyCreditCap ?? null,
      createdByUserId: key.createdByUserId ?? null,
      createdByKeyId: key.createdByKeyId ?? null,
    },
  });
  return { ...(await keyView(tx, row)), key: secret };
}

/** A workspace key (the first key, API_KEY, the sign-in link's, the CLI's): every scope, no creator, an owner. */
export const createApiKey = (tx: Tx, workspaceId: string, name: string, secret = newId.apiKeySecret()) =>
  insertApiKey(tx, workspaceId, { name }, secret);

/** Every key of the workspace, oldest first (the CLI, and callers holding keys:manage). */
export async function listApiKeys(tx: Tx, workspaceId: string): Promise<ApiKeyView[]> {
  const rows = await tx.apiKey.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return keyViews(tx, rows);
}

/** Revokes a key of this workspace; revoking a revoked key keeps its first revocation time. */
export async function revokeApiKey(tx: Tx, workspaceId: string, id: string): Promise<ApiKeyView> {
  // One statement decides and writes, so two revocations at once cannot both "win".
  await tx.apiKey.updateMany({ where: { id, workspaceId, revokedAt: null }, data: { revokedAt: new Date() } });
  const key = await tx.apiKey.findFirst({ where: { id, workspaceId } });
  if (!key) throw appError("api_key_not_found");
  return keyView(tx, key);
}
