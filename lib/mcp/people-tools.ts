import { z } from "zod";
import * as audit from "../http/schemas/audit.ts";
import * as members from "../http/schemas/members.ts";
import { pageThatFits } from "./call.ts";
import type { McpTool } from "./tool-types.ts";

// The MCP tools for the workspace's people and its audit log: each calls its REST endpoint, so
// the role and scope it needs (members:manage, audit:read), its checks (the last owner stays) and
// its audit entry are the endpoint's own.

const MAX_TOOL_ENTRIES = 100;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

interface Person {
  userId: string;
  email: string;
  role: string;
}

export const PEOPLE_TOOLS: readonly McpTool[] = [
  {
    name: "list_members",
    title: "List members",
    endpoints: [members.listMembers],
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: (r) =>
      `${plural(r.members.length, "member")}: ${r.members.map((m: Person) => `${m.email} (${m.role}, ${m.userId})`).join(", ")}`,
  },
  {
    name: "set_member_role",
    title: "Change a member's role",
    endpoints: [members.updateMember],
    // It changes what a person may do; the same role again changes nothing.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    summary: (r) => `${r.email} is now ${r.role}.`,
  },
  {
    name: "remove_member",
    title: "Remove a member",
    endpoints: [members.removeMember],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    summary: (r) => `Removed ${r.userId}: their sessions here ended and the keys they made stopped.`,
  },
  {
    name: "create_invitation",
    title: "Invite someone",
    endpoints: [members.createInvitation],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    summary: (r) =>
      `Invitation ${r.id} as ${r.role}${r.email ? ` for ${r.email}` : ""}, until ${r.expiresAt}: send ${r.url ?? "the link shown when it was made"}.`,
  },
  {
    name: "list_invitations",
    title: "List invitations",
    endpoints: [members.listInvitations],
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: (r) => {
      const open = r.invitations.filter((i: { usedAt: unknown; revokedAt: unknown }) => !i.usedAt && !i.revokedAt);
      return `${plural(r.invitations.length, "invitation")}, ${open.length} not used nor revoked.`;
    },
  },
  {
    name: "revoke_invitation",
    title: "Revoke an invitation",
    endpoints: [members.revokeInvitation],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    summary: (r) => `Invitation ${r.id} revoked; its link no longer works.`,
  },
  {
    name: "read_audit_log",
    title: "Read the audit log, a page at a time",
    description:
      'The workspace\'s audit entries, newest first: who did what, to what, when and from where. Filter by actorId, action (column.update, or "column." for every verb), targetId, baseId, since and until (ISO 8601); at most 100 a call. Pass nextCursor as cursor for the next page.',
    endpoints: [audit.listAudit],
    annotations: { readOnlyHint: true, openWorldHint: false },
    extra: {
      limit: z
        .number()
        .int()
        .min(1)
        .max(MAX_TOOL_ENTRIES)
        .optional()
        .describe(
          `Entries per page, 1 to ${MAX_TOOL_ENTRIES}; default 50. Pass nextCursor as cursor for the next page.`,
        ),
    },
    run: (args, invoke) => pageThatFits(invoke, audit.listAudit, args, 50),
    summary: (r) =>
      `${r.entries.length} ${r.entries.length === 1 ? "entry" : "entries"}${r.nextCursor ? `; more with cursor ${r.nextCursor}` : "; no more entries"}.`,
  },
];
