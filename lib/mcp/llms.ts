import { publicOrigin } from "../auth/session-cookie.ts";
import { ENDPOINTS } from "../http/schemas/index.ts";
import { TOOLS } from "./tools.ts";

// /llms.txt, per the llms.txt convention: a title, a one-paragraph summary, then sections of
// links. Generated from the endpoint registry and the MCP tool table, so it never goes stale.

/**
 * The file with links on the origin the client asked for: its Host, and X-Forwarded-Host and
 * -Proto only behind a trusted proxy (TRUST_PROXY), since anyone can send them. Vary names each
 * header read, so a shared cache never hands one host's links to another.
 */
export function llmsTxtResponse(req: Request, trustProxy: boolean): Response {
  return new Response(llmsTxt(publicOrigin(req, trustProxy)), {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "public, max-age=300",
      vary: trustProxy ? "Host, X-Forwarded-Host, X-Forwarded-Proto" : "Host",
    },
  });
}

export function llmsTxt(origin: string): string {
  const byTag = new Map<string, string[]>();
  for (const e of ENDPOINTS) {
    const group = e.path.split("/")[3] ?? "api";
    const line = `- [${e.method} ${e.path}](${origin}/docs): ${e.summary}${e.description ? `. ${e.description.split(". ")[0].replace(/\.$/, "")}` : ""}`;
    byTag.set(group, [...(byTag.get(group) ?? []), line]);
  }
  return [
    "# Cellwright",
    "",
    "> Cellwright is an open-source, self-hostable AI enrichment table. A base is a table with one sheet of typed columns; " +
      "AI columns fill their cells from instructions, input columns and tools (web search, scraping, files), and every generated " +
      "cell keeps its sources, a confidence score and details. Everything is available over a REST API (X-API-Key) and an MCP server.",
    "",
    "Errors are JSON `{ error: { code, message, details? } }` with stable codes. A POST may carry an `Idempotency-Key` header: " +
      "a retry with the same key and body replays the first answer (`Idempotency-Replayed: true`) and does nothing again.",
    "",
    "## Docs",
    "",
    `- [OpenAPI 3.1 document](${origin}/api/v1/openapi.json): every endpoint, parameter, body, limit and response, generated from the code`,
    `- [API reference](${origin}/docs): the same document, rendered`,
    `- [This file](${origin}/llms.txt); the guides are in the repository's docs/ folder: api.md (envelopes, paging, column types, every error code), engine.md (how AI cells run), assistant.md (configuring a base by chat), finds.md (finding rows from a description)`,
    "",
    "## MCP",
    "",
    `- [Streamable HTTP endpoint](${origin}/mcp): authenticate with \`Authorization: Bearer cw_…\` (or \`X-API-Key\`); scoped to the key's workspace`,
    "- stdio: `CELLWRIGHT_URL=… CELLWRIGHT_API_KEY=cw_… npm run cli -- mcp`",
    "- Resources: `cellwright://bases/{baseId}/structure`",
    ...TOOLS.map((t) => `- \`${t.name}\`: ${t.title}${t.annotations.readOnlyHint ? " (read-only)" : ""}`),
    "",
    "## API",
    "",
    ...[...byTag.values()].flat(),
    "",
  ].join("\n");
}
