import { appError } from "../errors.ts";
import type { Principal } from "./principal.ts";
import { isRole, KEY_SCOPES, keyPermissions, PERSON_PERMISSIONS, type Permission, type Role } from "./permissions.ts";

export interface KeyRow {
  id: string;
  workspace_id: string;
  hash: string;
  revoked_at: Date | null;
  last_used_at: Date | null;
  expires_at: Date | null;
  scopes: string[];
  base_ids: string[];
  daily_credit_cap: number | null;
  created_by_user_id: string | null;
  created_by_key_id: string | null;
  /** The creator's role in the key's workspace; null when the creator has left it. */
  creator_role: string | null;
}

/** One statement reads the key and its creator's role, so a departed creator's key stops at once. */
export const KEY_SELECT = `SELECT k.id, k.workspace_id, k.hash, k.revoked_at, k.last_used_at, k.expires_at, k.scopes,
  k.base_ids, k.daily_credit_cap, k.created_by_user_id, k.created_by_key_id, m.role AS creator_role
  FROM api_keys k LEFT JOIN memberships m ON m.workspace_id = k.workspace_id AND m.user_id = k.created_by_user_id`;

/** What a key row lets its holder do, or why it no longer lets them do anything. */
export function keyPrincipal(row: KeyRow, now = Date.now()): Principal {
  if (row.revoked_at) throw appError("invalid_api_key");
  if (expired(row.expires_at ? new Date(row.expires_at).getTime() : null, now)) throw appError("api_key_expired");
  const role = creatorRole(row);
  return {
    workspaceId: row.workspace_id,
    keyId: row.id,
    userId: row.created_by_user_id,
    actorId: row.id,
    role,
    permissions: isWorkspaceKey(row) ? workspaceKeyPermissions(row.scopes) : keyPermissions(role, row.scopes),
    baseIds: row.base_ids.length > 0 ? row.base_ids : null,
    dailyCreditCap: row.daily_credit_cap,
  };
}

/**
 * A workspace key (no creator and every scope: the first key, API_KEY, the browser sign-in key, a
 * key made before teams; not a key another key made, nor a CLI key with fewer scopes) stands for the
 * workspace's owner, so it also holds the person-only permissions: whoever installed the server
 * can invite people and create the first owner account with it.
 */
const isWorkspaceKey = (row: KeyRow) =>
  row.created_by_user_id === null && row.created_by_key_id === null && KEY_SCOPES.every((s) => row.scopes.includes(s));

function workspaceKeyPermissions(scopes: string[]): Set<Permission> {
  const out = keyPermissions("owner", scopes);
  for (const p of PERSON_PERMISSIONS) out.add(p);
  return out;
}

function creatorRole(row: KeyRow): Role {
  if (row.created_by_user_id === null) return "owner";
  if (!isRole(row.creator_role))
    throw appError("invalid_api_key", "The API key's creator is no longer a member of its workspace.");
  return row.creator_role;
}

const expired = (expiresAt: number | null, now: number) => expiresAt !== null && expiresAt <= now;
