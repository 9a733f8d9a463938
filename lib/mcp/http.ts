import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { appError } from "../errors.ts";
import { errorResponse } from "../http/respond.ts";
import { principalForKey, type Principal } from "../auth/authenticate.ts";
import type { Runtime } from "../runtime.ts";
import type { Endpoint } from "../http/endpoint.ts";
import { hostPolicy, transportLists } from "../http/allowed-hosts.ts";
import { ToolError, type Invoke } from "./call.ts";
import { createMcpServer } from "./server.ts";

// /mcp over Streamable HTTP, stateless: each POST gets its own server and transport, so any
// worker can answer any request. The caller's API key (Authorization: Bearer or X-API-Key)
// authenticates the request, and every tool calls the API's own handlers with that same key.

type RouteHandler = ((req: Request, context?: { params?: Record<string, string> }) => Promise<Response>) & {
  endpoint?: Endpoint;
};

/** The API handlers of route modules, by the endpoint each serves. */
export function handlersOf(modules: Record<string, unknown>[]): Map<Endpoint, RouteHandler> {
  const map = new Map<Endpoint, RouteHandler>();
  for (const mod of modules) {
    for (const h of Object.values(mod))
      if (typeof h === "function" && (h as RouteHandler).endpoint)
        map.set((h as RouteHandler).endpoint!, h as RouteHandler);
  }
  return map;
}

export function apiKeyOf(req: Request): string | undefined {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "")?.[1];
  return bearer ?? req.headers.get("x-api-key") ?? undefined;
}

/** Calls the API in this process, as the holder of `key`. */
export function inProcessInvoke(handlers: Map<Endpoint, RouteHandler>, origin: string, key: string): Invoke {
  return async (r) => {
    const handler = handlers.get(r.endpoint);
    if (!handler)
      throw new ToolError("not_found", `${r.endpoint.method} ${r.endpoint.path} is not served to MCP tools.`);
    const url = new URL(r.path, origin);
    for (const [k, v] of Object.entries(r.query)) url.searchParams.set(k, v);
    const headers: Record<string, string> = { "x-api-key": key, accept: "application/json" };
    if (r.body !== undefined) headers["content-type"] = "application/json";
    const res = await handler(
      new Request(url, {
        method: r.endpoint.method,
        headers,
        body: r.body === undefined ? undefined : JSON.stringify(r.body),
      }),
      {
        params: r.params,
      },
    );
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
}

export async function handleMcp(rt: Runtime, req: Request, handlers: Map<Endpoint, RouteHandler>): Promise<Response> {
  const key = apiKeyOf(req);
  let principal: Principal;
  try {
    if (!key) throw appError("missing_api_key", "Send an API key: Authorization: Bearer cw_… or X-API-Key.");
    principal = await principalForKey(rt, key);
  } catch (e) {
    const res = errorResponse(e);
    res.headers.set("www-authenticate", 'Bearer realm="cellwright"');
    return res;
  }
  // Each tool call is authorised again by the API it calls; the principal only chooses what is listed.
  const server = createMcpServer(inProcessInvoke(handlers, new URL(req.url).origin, key), principal);
  // The edge refuses a foreign Host before any route; the SDK checks again with the same policy,
  // and also refuses a browser's Origin that is not this site's, as the MCP specification asks.
  const lists = transportLists(hostPolicy(rt.config), req.headers.get("host") ?? undefined, rt.config.publicUrl);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    enableDnsRebindingProtection: true,
    ...lists,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req);
  } finally {
    // With JSON responses the answer is complete here; the per-request server is done.
    void server.close();
  }
}
