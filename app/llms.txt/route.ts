import { llmsTxt } from "@/lib/mcp/llms";

// llms.txt: a short, link-rich map of the API and the MCP server for agents reading docs.
export async function GET(req: Request): Promise<Response> {
  return new Response(llmsTxt(new URL(req.url).origin), { headers: { "content-type": "text/plain; charset=utf-8" } });
}
