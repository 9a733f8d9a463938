import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Config } from "../config.ts";

// `npm run cli -- mcp`: a stdio MCP server for desktop clients that speak only stdio. It opens no
// database: every message is forwarded to a running Cellwright's /mcp (CELLWRIGHT_URL) with
// CELLWRIGHT_API_KEY, so its tools are exactly the server's.

export async function runMcpBridge(
  { url, apiKey }: Config["remote"],
  log: (line: string) => void = (l) => console.error(l),
): Promise<number> {
  if (!apiKey) {
    log("error: CELLWRIGHT_API_KEY is required (an API key of the Cellwright at CELLWRIGHT_URL).");
    return 64;
  }
  const endpoint = new URL("/mcp", url);
  const remote = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
  });
  const local = new StdioServerTransport();
  local.onmessage = (message: JSONRPCMessage) => {
    remote.send(message).catch((e: Error) => {
      // A request must get an answer, or the client waits forever.
      if ("id" in message && "method" in message) {
        void local.send({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: -32603, message: `Cellwright at ${endpoint} did not answer: ${e.message}` },
        });
      }
    });
  };
  remote.onmessage = (message) => void local.send(message);
  remote.onerror = (e) => log(`cellwright mcp: ${e.message}`);
  const closed = new Promise<void>((resolve) => (local.onclose = resolve));
  await remote.start();
  await local.start();
  await closed;
  await remote.close();
  return 0;
}
