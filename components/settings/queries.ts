"use client";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { api } from "../data/api";
import type { ApiKeyView, AuditFilters, AuditPage, Invitation, Member, SecretView, WorkspaceSettings } from "./types";

export const settingsKeys = {
  members: ["members"] as const,
  invitations: ["invitations"] as const,
  apiKeys: ["api-keys"] as const,
  workspace: ["workspace"] as const,
  secrets: ["secrets"] as const,
  audit: (filters: AuditFilters) => ["audit", filters] as const,
};

export function useMembers() {
  return useQuery({
    queryKey: settingsKeys.members,
    queryFn: () => api<{ members: Member[] }>("/api/v1/members").then((r) => r.members),
  });
}

/** Only an owner may list invitations: `enabled` keeps others from asking for a certain 403. */
export function useInvitations(enabled: boolean) {
  return useQuery({
    queryKey: settingsKeys.invitations,
    enabled,
    queryFn: () => api<{ invitations: Invitation[] }>("/api/v1/invitations").then((r) => r.invitations),
  });
}

export function useWorkspace() {
  return useQuery({ queryKey: settingsKeys.workspace, queryFn: () => api<WorkspaceSettings>("/api/v1/workspace") });
}

export function useApiKeys() {
  return useQuery({
    queryKey: settingsKeys.apiKeys,
    queryFn: () => api<{ apiKeys: ApiKeyView[] }>("/api/v1/api-keys").then((r) => r.apiKeys),
  });
}

/** Only a holder of secrets:manage may list secrets: `enabled` keeps others from asking for a certain 403. */
export function useSecrets(enabled: boolean) {
  return useQuery({
    queryKey: settingsKeys.secrets,
    enabled,
    queryFn: () => api<{ secrets: SecretView[] }>("/api/v1/secrets").then((r) => r.secrets),
  });
}

/** The audit query string: empty filters are left out; dates from <input type=datetime-local> become ISO. */
export function auditSearch(filters: AuditFilters, cursor: string | null): string {
  const q = new URLSearchParams({ limit: "50" });
  if (filters.action.trim()) q.set("action", filters.action.trim());
  if (filters.actorId.trim()) q.set("actorId", filters.actorId.trim());
  if (filters.baseId) q.set("baseId", filters.baseId);
  if (filters.since) q.set("since", new Date(filters.since).toISOString());
  if (filters.until) q.set("until", new Date(filters.until).toISOString());
  if (cursor) q.set("cursor", cursor);
  return q.toString();
}

/** The audit log, newest first, a page at a time ("Load more" follows nextCursor). */
export function useAudit(filters: AuditFilters, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: settingsKeys.audit(filters),
    enabled,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => api<AuditPage>(`/api/v1/audit?${auditSearch(filters, pageParam)}`, { signal }),
    getNextPageParam: (last) => last.nextCursor,
  });
}
