import type { Permission, Role } from "./permissions.ts";

/**
 * Who a request acts for: a member of a workspace, through one of the workspace's API keys, a
 * session made from a key, or a user's own session.
 */
export interface Principal {
  workspaceId: string;
  /** The key of the request (or of the session it was made from); null for a user's session. */
  keyId: string | null;
  /** The person: a user's session, or the creator of the key. Null for workspace keys. */
  userId: string | null;
  /** Who to name in the audit log, and whose budget the API's rate limit counts: `key_…` or `usr_…`. */
  actorId: string;
  /** The user's role, or the key creator's (owner for workspace keys). */
  role: Role;
  permissions: ReadonlySet<Permission>;
  /** The bases a key is limited to; null: every base of the workspace. */
  baseIds: readonly string[] | null;
  /** Credits the key may spend per UTC day; null: no cap. */
  dailyCreditCap: number | null;
}
