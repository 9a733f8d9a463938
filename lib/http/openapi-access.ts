import { requiredScopes } from "../auth/authorize.ts";
import { scopeToName } from "../auth/permissions.ts";
import type { Endpoint } from "./endpoint.ts";

// Who may call each operation, in the OpenAPI document. OpenAPI 3.1 lets a security requirement
// of a non-OAuth scheme list role names, so each operation lists the scopes it needs there (all of
// them are needed), and says it again in words in its description for readers of the rendered page.

const SCOPE_TEXT: Record<string, string> = {
  "rows:read": "read bases, rows, views, runs, files, evaluations and credits; export",
  "rows:write": "add, update and delete rows; imports, files, views and review",
  "schema:write": "create, change and delete bases and columns; apply evaluations; the assistant",
  "runs:write": "anything that spends credits: runs, evaluations, and writes that queue AI cells",
  "webhooks:manage": "webhook endpoints and their deliveries",
  "keys:manage": "every API key of the workspace",
  "secrets:manage": "the workspace's secrets",
  "audit:read": "the audit log",
  "members:manage": "members, invitations and password resets (people only, never a key)",
};

/** How the document's security schemes describe roles and scopes, once. */
export const ACCESS_DESCRIPTION =
  "Each operation lists the scopes it needs in its security requirement (all of them). A member's role " +
  "grants scopes: viewer rows:read; editor adds rows:write and runs:write; admin adds schema:write, " +
  "webhooks:manage, keys:manage, secrets:manage and audit:read; owner adds members:manage. A key carries " +
  "the scopes it was made with, as far as its creator's role still grants them; a workspace key (the first " +
  "key, API_KEY) has every scope. Every member may manage their own keys; a key needs keys:manage for that. " +
  "A key limited to some bases gets 403 base_not_in_scope on other bases and on operations that reach every " +
  "base, and 404 for a run, file or evaluation of another base. Without a scope: 403 insufficient_scope, " +
  `details.scope naming it. Scopes: ${Object.entries(SCOPE_TEXT)
    .map(([s, t]) => `${s} (${t})`)
    .join("; ")}.`;

/** The scopes an operation's security requirement names (as a key would carry them). */
export const operationScopes = (e: Endpoint): string[] => [...new Set(requiredScopes(e).map(scopeToName))];

/** The operation's security: none for a public one, else either scheme with the scopes needed. */
export function operationSecurity(e: Endpoint): Record<string, string[]>[] {
  if (e.public) return [];
  const scopes = operationScopes(e);
  return [{ apiKey: scopes }, { sessionCookie: scopes }];
}

/** One sentence on who may call it, appended to the operation's description. */
export function accessNote(e: Endpoint): string {
  if (e.public) return "Public: no key needed.";
  const scopes = operationScopes(e)
    .map((s) => `\`${s}\``)
    .join(" and ");
  const people = e.scope === "keys:own" ? " Every member may call it for their own keys." : "";
  const bases = e.allBases ? " A key limited to some bases is refused (base_not_in_scope)." : "";
  return `Needs ${scopes}.${people}${bases}`;
}
