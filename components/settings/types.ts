// The members, invitations, keys, audit and workspace answers as the web app reads them: inferred
// from the endpoint schemas the API validates and documents with (lib/http/schemas/), as
// components/data/types.ts does for bases and rows, so they cannot drift from the API.
import type { z } from "zod";
import type { createApiKey, listApiKeys } from "@/lib/http/schemas/api-keys.ts";
import type { getWorkspace, listAudit } from "@/lib/http/schemas/audit.ts";
import type { createInvitation, listInvitations, listMembers } from "@/lib/http/schemas/members.ts";
import type { listSecrets } from "@/lib/http/schemas/secrets.ts";

export type Member = z.infer<(typeof listMembers)["response"]>["members"][number];

export type Invitation = z.infer<(typeof listInvitations)["response"]>["invitations"][number];

/** POST /api/v1/invitations: the link is in this answer only. */
export type CreatedInvitation = z.infer<(typeof createInvitation)["response"]>;

export type ApiKeyView = z.infer<(typeof listApiKeys)["response"]>["apiKeys"][number];

/** A secret as listed: never its value. */
export type SecretView = z.infer<(typeof listSecrets)["response"]>["secrets"][number];

export type CreateKeyRequest = z.input<(typeof createApiKey)["body"]>;

export type AuditPage = z.infer<(typeof listAudit)["response"]>;

export type AuditEntry = AuditPage["entries"][number];

export interface AuditFilters {
  action: string;
  actorId: string;
  baseId: string;
  since: string;
  until: string;
}

/** GET /api/v1/workspace. */
export type WorkspaceSettings = z.infer<(typeof getWorkspace)["response"]>;
