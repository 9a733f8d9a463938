import * as secrets from "../http/schemas/secrets.ts";
import type { McpTool } from "./tool-types.ts";

// The MCP tools for workspace secrets: each calls its REST endpoint, so its scope
// (secrets:manage), checks and audit entry are the endpoint's own. No answer, summary included,
// carries a value: the endpoints never return one.

export const SECRETS_TOOLS: readonly McpTool[] = [
  {
    name: "list_secrets",
    title: "List secrets",
    endpoints: [secrets.listSecrets],
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: (r) =>
      r.secrets.length === 0
        ? "No secrets."
        : `${r.secrets.length} secret${r.secrets.length === 1 ? "" : "s"}: ${r.secrets.map((s: { name: string }) => s.name).join(", ")}`,
  },
  {
    name: "create_secret",
    title: "Create a secret",
    endpoints: [secrets.createSecret],
    // replace: true overwrites a value that cannot be read back.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    summary: (r) => `Secret ${r.name} stored${r.last4 ? ` (ends in ${r.last4})` : ""}; use it as {{secret:${r.name}}}.`,
  },
  {
    name: "delete_secret",
    title: "Delete a secret",
    endpoints: [secrets.deleteSecret],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    summary: (r) => `Secret ${r.name} deleted.`,
  },
];
