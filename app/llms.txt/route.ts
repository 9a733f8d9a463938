import { route } from "@/lib/http/respond";
import { llmsTxtResponse } from "@/lib/mcp/llms";

// llms.txt: a short, link-rich map of the API and the MCP server for agents reading docs. Links
// use the host the client asked for, not the bind address (forwarded headers with TRUST_PROXY only).
export const GET = route(async ({ req, rt }) => llmsTxtResponse(req, rt.config.trustProxy), { public: true });
