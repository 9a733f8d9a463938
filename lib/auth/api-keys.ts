import { createHash } from "node:crypto";
import type { Tx } from "../db/database.ts";
import { newId } from "../ids.ts";
import { appError } from "../errors.ts";
import { assertBelow, QUOTAS } from "../domain/limits.ts";

export const hashKey = (key: string) => createHash("sha256").update(key).digest("hex");

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

type KeyRow = {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

export const toKeyView = (k: KeyRow): ApiKeyView => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

/** Creates a key; the secret is returned here once and only its hash is stored. */
export async function createApiKey(tx: Tx, workspaceId: string, name: string, secret = newId.apiKeySecret()) {
  // Revoked keys count too: they are kept for the record, and revoking is not a way around the cap.
  const count = await tx.apiKey.count({ where: { workspaceId } });
  assertBelow(count, QUOTAS.apiKeysPerWorkspace, `A workspace has at most ${QUOTAS.apiKeysPerWorkspace} API keys`);
  const row = await tx.apiKey.create({
    data: { id: newId.apiKey(), workspaceId, name, prefix: secret.slice(0, 7), hash: hashKey(secret) },
  });
  return { ...toKeyView(row), key: secret };
}

export async function listApiKeys(tx: Tx, workspaceId: string): Promise<ApiKeyView[]> {
  const rows = await tx.apiKey.findMany({ where: { workspaceId }, orderBy: { createdAt: "asc" } });
  return rows.map(toKeyView);
}

/** Revokes a key of this workspace; revoking a revoked key keeps its first revocation time. */
export async function revokeApiKey(tx: Tx, workspaceId: string, id: string): Promise<ApiKeyView> {
  // One statement decides and writes, so two revocations at once cannot both "win".
  await tx.apiKey.updateMany({ where: { id, workspaceId, revokedAt: null }, data: { revokedAt: new Date() } });
  const key = await tx.apiKey.findFirst({ where: { id, workspaceId } });
  if (!key) throw appError("api_key_not_found");
  return toKeyView(key);
}
