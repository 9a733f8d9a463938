import { z } from "zod";
import { defineEndpoint, intQuery } from "../endpoint.ts";
import { cursorQuery, isoDate } from "./common.ts";
import { DEFAULT_AUDIT_PAGE, MAX_AUDIT_PAGE } from "../../audit/list.ts";

// The audit log (docs/audit.md) and the workspace's settings, among them how long it is kept.

const isoQuery = (name: string, description: string) =>
  z
    .string()
    .max(40)
    .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, `${name} must be an ISO 8601 date or date-time.`)
    .transform((v, ctx) => {
      const d = new Date(v);
      if (Number.isNaN(d.getTime())) ctx.addIssue({ code: "custom", message: `${name} is not a valid date.` });
      return d;
    })
    .optional()
    .describe(description);

const idQuery = (description: string) =>
  z
    .string()
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/, "An id is letters, digits, _ and -.")
    .optional()
    .describe(description);

export const auditEntrySchema = z
  .strictObject({
    id: z.string().describe("The entry's id (aud_…)."),
    at: isoDate("When it happened"),
    actor: z
      .strictObject({
        type: z.enum(["user", "key"]).describe("A person in their own session, or an API key."),
        id: z.string().describe("The user's id (usr_…) or the key's (key_…)."),
        name: z.string().describe("The user's email, or the key's name, when it was recorded."),
      })
      .describe("Who did it."),
    action: z.string().describe("What was done: <noun>.<verb>, e.g. column.update."),
    target: z
      .strictObject({
        type: z.string().describe("base, column, view, key, webhook, run, import, evaluation, workspace, …"),
        id: z.string().describe("Its id."),
      })
      .nullable()
      .describe("What it was done to; null for an action on many things (rows.delete)."),
    baseId: z.string().nullable().describe("The base concerned, if any."),
    summary: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("Small facts: changed fields as {before, after}, names, counts. Never secrets or row values."),
    ip: z.string().nullable().describe("The client's address; null when unknown."),
  })
  .describe("One audit entry.");

export const listAudit = defineEndpoint({
  method: "GET",
  path: "/api/v1/audit",
  scope: "audit:read",
  summary: "Audit log",
  description: "The workspace's audit entries, newest first, filtered and paged.",
  query: z.object({
    actorId: idQuery("Only this user's or key's entries."),
    action: z
      .string()
      .max(100)
      .regex(/^[a-z_]+(\.[a-z_]*)?$/, "action is <noun>.<verb> (exact) or <noun>. (every verb).")
      .optional()
      .describe('An action (column.update), or a prefix ending in a dot ("column.").'),
    targetId: idQuery("Only entries about this target."),
    baseId: idQuery("Only entries about this base."),
    since: isoQuery("since", "From this time on (inclusive, ISO 8601)."),
    until: isoQuery("until", "Before this time (exclusive, ISO 8601)."),
    limit: intQuery("limit", 1, MAX_AUDIT_PAGE, `Page size, 1 to ${MAX_AUDIT_PAGE}; default ${DEFAULT_AUDIT_PAGE}.`),
    cursor: cursorQuery("entries"),
  }),
  response: z.strictObject({
    entries: z.array(auditEntrySchema).describe("Entries, newest first."),
    nextCursor: z.string().nullable().describe("The cursor of the next page; null on the last page."),
  }),
});

const workspaceSchema = z
  .strictObject({
    id: z.string().describe("The workspace's id (ws_…)."),
    name: z.string().describe("Its name."),
    auditRetentionDays: z.number().int().nullable().describe("Days audit entries are kept; null keeps them forever."),
    credits: z.number().nullable().describe("The credit balance; null means unlimited."),
  })
  .describe("The workspace's settings.");

export const getWorkspace = defineEndpoint({
  method: "GET",
  path: "/api/v1/workspace",
  scope: "rows:read",
  summary: "Workspace settings",
  response: workspaceSchema,
});

export const updateWorkspace = defineEndpoint({
  method: "PATCH",
  path: "/api/v1/workspace",
  scope: "members:manage",
  audit: { action: "workspace.update", target: "workspace", fields: ["name", "auditRetentionDays"] },
  summary: "Change workspace settings",
  description: "Renames the workspace, or sets how many days audit entries are kept (null: forever).",
  body: z.strictObject({
    name: z.string().trim().min(1).max(100).optional().describe("A new name, unique on this server."),
    auditRetentionDays: z
      .number()
      .int()
      .min(1)
      .max(3650)
      .nullable()
      .optional()
      .describe("Days to keep audit entries, 1 to 3650; null keeps them forever."),
  }),
  response: workspaceSchema,
});
