import { afterAll, beforeAll } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as mcpRoute from "../../app/mcp/route.ts";

// The SDK's own client over Streamable HTTP. In process, its requests go to the /mcp route handler
// through the transport's fetch; against a real server, over the network.

type Handler = (req: Request) => Promise<Response>;
const handlers = mcpRoute as unknown as Record<string, Handler>;

/** Dispatches the transport's requests to app/mcp/route.ts, as Next.js would. */
export const inProcessFetch = async (url: string | URL, init?: RequestInit) => {
  const req = new Request(url, init);
  // As every HTTP client does, and as the MCP transport's host check needs.
  if (!req.headers.has("host")) req.headers.set("host", new URL(url).host);
  const handler = handlers[req.method];
  return handler ? handler(req) : new Response(null, { status: 405 });
};

export async function connect(
  key: string | undefined,
  opts: { url?: string; header?: "bearer" | "x-api-key" } = {},
): Promise<Client> {
  const headers: Record<string, string> = {};
  if (key)
    headers[opts.header === "x-api-key" ? "x-api-key" : "authorization"] =
      opts.header === "x-api-key" ? key : `Bearer ${key}`;
  const transport = new StreamableHTTPClientTransport(new URL(opts.url ?? "http://localhost/mcp"), {
    requestInit: { headers },
    ...(opts.url ? {} : { fetch: inProcessFetch }),
  });
  const client = new Client({ name: "cellwright-tests", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** Two clients for a suite, one per workspace's key (A and B), connected before it and closed after. */
export function useMcpClients(app: () => { keyA: string; keyB: string }) {
  const clients = {} as { a: Client; b: Client };
  beforeAll(async () => {
    clients.a = await connect(app().keyA);
    clients.b = await connect(app().keyB);
  });
  afterAll(async () => {
    await clients.a?.close();
    await clients.b?.close();
  });
  return clients;
}

/** A tool call's structured result; fails the test with the tool's error when it has one. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ result: any; text: string }> {
  const res = await client.callTool({ name, arguments: args });
  const text = (res.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
  if (res.isError) throw new Error(`${name} failed: ${text}`);
  return { result: res.structuredContent, text };
}

/** A tool call that must fail: its error body { error: { code, message } }. */
export async function callError(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ code: string; message: string; details?: any }> {
  const res = await client.callTool({ name, arguments: args });
  const text = (res.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
  if (!res.isError) throw new Error(`${name} should have failed: ${text}`);
  return JSON.parse(text).error;
}
