// The shapes of the members, invitations, keys and audit APIs as the web app reads them
// (the teams and access endpoints; see docs/api.md).
import type { KeyScope, Role } from "@/lib/auth/permissions.ts";

export interface Member {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  createdAt: string;
}

export interface Invitation {
  id: string;
  role: Role;
  email: string | null;
  expiresAt: string;
  createdAt: string;
  usedAt?: string | null;
  revokedAt?: string | null;
}

/** POST /api/v1/invitations: the link is in this answer only. */
export interface CreatedInvitation extends Invitation {
  url: string | null;
}

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  scopes: string[];
  baseIds: string[] | null;
  expiresAt: string | null;
  dailyCreditCap: number | null;
  spentToday: number;
  createdBy: { type: "user" | "key" | "workspace"; id: string | null; name: string };
}

export interface CreateKeyRequest {
  name?: string;
  scopes?: KeyScope[];
  baseIds?: string[];
  expiresAt?: string;
  dailyCreditCap?: number;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: { type: "user" | "key"; id: string; name: string };
  action: string;
  target: { type: string; id: string } | null;
  baseId: string | null;
  summary: Record<string, unknown> | null;
  ip: string | null;
}

export interface AuditPage {
  entries: AuditEntry[];
  nextCursor: string | null;
}

export interface AuditFilters {
  action: string;
  actorId: string;
  baseId: string;
  since: string;
  until: string;
}

/** GET /api/v1/workspace. */
export interface WorkspaceSettings {
  id: string;
  name: string;
  auditRetentionDays: number | null;
  credits: number | null;
}
