import { llmsTxt } from "@/lib/mcp/llms";

// llms.txt: a short, link-rich map of the API and the MCP server for agents reading docs. Links
// use the host the client asked for (behind a proxy, its forwarded host), not the bind address.
export async function GET(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? url.host;
  const proto = req.headers.get("x-forwarded-proto") ?? url.protocol.replace(":", "");
  return new Response(llmsTxt(`${proto}://${host}`), { headers: { "content-type": "text/plain; charset=utf-8" } });
}
