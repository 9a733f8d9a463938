"use client";
import { useQuery } from "@tanstack/react-query";
import { ROLE_PERMISSIONS, isRole, type Permission, type Role } from "@/lib/auth/permissions.ts";
import { api } from "../data/api";

/** GET /api/v1/session as the web app reads it. */
export type SessionInfo =
  | {
      authenticated: true;
      workspaceId: string;
      keyId: string | null;
      userId: string | null;
      user: { id: string; email: string; name: string | null } | null;
      role: Role;
      permissions: Permission[];
      baseIds: string[] | null;
    }
  | { authenticated: false; ssoEnabled?: boolean };

export const sessionKey = ["session"] as const;

export function useSession() {
  return useQuery({ queryKey: sessionKey, queryFn: () => api<SessionInfo>("/api/v1/session"), staleTime: 60_000 });
}

/** What each permission lets a person do, to finish the sentence "Viewers can't …". */
export const ACTIONS: Record<Permission, string> = {
  "rows:read": "read rows",
  "rows:write": "edit rows",
  "schema:write": "change columns or bases",
  "runs:write": "run AI cells",
  "webhooks:manage": "manage webhooks",
  "keys:manage": "manage every API key",
  "secrets:manage": "manage secrets",
  "audit:read": "read the audit log",
  "members:manage": "manage members",
  "keys:own": "make API keys",
};

export const ROLE_LABEL: Record<Role, string> = { owner: "Owner", admin: "Admin", editor: "Editor", viewer: "Viewer" };
const ROLE_PLURAL: Record<Role, string> = { owner: "Owners", admin: "Admins", editor: "Editors", viewer: "Viewers" };

export interface Permissions {
  /** False until the session is known; controls stay enabled meanwhile (the server checks anyway). */
  known: boolean;
  role: Role | null;
  can: (p: Permission) => boolean;
  /** Why a control is disabled, for its title and screen readers; undefined when it is allowed. */
  reason: (p: Permission, action?: string) => string | undefined;
}

/** The reason a principal lacks `p`: its role, or (a key session) the key's scopes. */
export function denialReason(role: Role, p: Permission, action = ACTIONS[p]): string {
  const who = ROLE_PERMISSIONS[role].has(p) ? "This API key" : ROLE_PLURAL[role];
  return `${who} can't ${action} (needs ${p})`;
}

/**
 * The signed-in principal's permissions (GET /api/v1/session). Every control the principal may
 * not use is disabled with `reason(...)` as its title, so the UI never offers a certain 403.
 */
export function usePermissions(): Permissions {
  const session = useSession();
  const data = session.data;
  const granted = data?.authenticated && Array.isArray(data.permissions) ? new Set<string>(data.permissions) : null;
  const role = data?.authenticated && isRole(data.role) ? data.role : null;
  const can = (p: Permission) => granted === null || granted.has(p);
  return {
    known: granted !== null,
    role,
    can,
    reason: (p, action) => (can(p) ? undefined : denialReason(role ?? "viewer", p, action)),
  };
}
