import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { rawRequest, startEdgeServer, type EdgeServer } from "../support/edge-server.ts";
import { inProcessFetch } from "../mcp/helpers.ts";

// DNS rebinding: a page on rebind.evil.example whose name now resolves to 127.0.0.1 is same-origin
// with the server in the browser. Its requests still name rebind.evil.example in Host, and the edge
// refuses them before any session, cookie or MCP handling, pages included.

const KEY = "cw_hostsTestKey00000000000000000000000000001";
let app: TestApp;
let edge: EdgeServer;
let proxied: EdgeServer;

beforeAll(async () => {
  app = await createTestApp({ UI_AUTO_LOGIN: "true", API_KEY: KEY });
  edge = await startEdgeServer();
  proxied = await startEdgeServer({
    trustProxy: true,
    publicUrl: "https://cellwright.example.com",
    allowedHosts: ["cellwright"],
  });
}, 60_000);
afterAll(async () => {
  await proxied?.close();
  await edge?.close();
  await app?.close();
});

const port = () => new URL(edge.url).port;
const MCP_INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});
const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  authorization: `Bearer ${KEY}`,
};

describe("a request naming a host the server does not answer to", () => {
  it.each([
    ["GET", "/api/v1/session/auto?next=/", {}],
    ["GET", "/api/v1/bases", { "x-api-key": KEY }],
    ["POST", "/api/v1/api-keys", { "x-api-key": KEY, "content-type": "application/json" }],
    ["POST", "/mcp", MCP_HEADERS],
    ["GET", "/", {}],
    ["GET", "/bases/abcdEFGH", {}],
  ])("%s %s is refused with 421 host_not_allowed and no cookie", async (method, path, headers) => {
    const before = await app.rt.db.prisma.apiKey.count();
    const res = await rawRequest(edge.url, {
      method,
      path,
      headers: { ...headers, host: `rebind.evil.example:${port()}` },
      body: method === "POST" ? (path === "/mcp" ? MCP_INIT : '{"name":"stolen"}') : undefined,
    });
    expect(res.status).toBe(421);
    expect(res.headers["set-cookie"]).toBeUndefined();
    expect(JSON.parse(res.text).error.code).toBe("host_not_allowed");
    expect(await app.rt.db.prisma.apiKey.count()).toBe(before);
  });

  it("is served when it names localhost, the loopback address or its IPv6 form", async () => {
    for (const host of [`localhost:${port()}`, `127.0.0.1:${port()}`, `[::1]:${port()}`]) {
      const res = await rawRequest(edge.url, { method: "GET", path: "/api/v1/session/auto?next=/", headers: { host } });
      expect(res.status, host).toBe(303);
      expect(String(res.headers["set-cookie"])).toMatch(/^cellwright_session=/);
    }
  });

  it("behind a trusted proxy: PUBLIC_URL's host and ALLOWED_HOSTS are served, and X-Forwarded-Host must be allowed too", async () => {
    const get = (headers: Record<string, string>) =>
      rawRequest(proxied.url, { method: "GET", path: "/api/v1/bases", headers: { "x-api-key": KEY, ...headers } });
    expect((await get({ host: "cellwright.example.com" })).status).toBe(200);
    expect((await get({ host: "cellwright:3000" })).status).toBe(200);
    expect((await get({ host: "127.0.0.1:3000", "x-forwarded-host": "cellwright.example.com" })).status).toBe(200);
    expect((await get({ host: "127.0.0.1:3000", "x-forwarded-host": "rebind.evil.example" })).status).toBe(421);
    // Without TRUST_PROXY, X-Forwarded-Host is anyone's to send: it is ignored, not checked.
    const direct = await rawRequest(edge.url, {
      method: "GET",
      path: "/api/v1/bases",
      headers: { "x-api-key": KEY, host: `127.0.0.1:${port()}`, "x-forwarded-host": "rebind.evil.example" },
    });
    expect(direct.status).toBe(200);
  });
});

describe("the MCP transport's own DNS-rebinding protection", () => {
  const post = (headers: Record<string, string>) =>
    inProcessFetch("http://localhost/mcp", { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body: MCP_INIT });

  it("refuses a foreign Host or a foreign Origin even when the request got past the edge", async () => {
    const host = await post({ host: "rebind.evil.example:3000" });
    expect(host.status).toBe(403);
    expect(await host.text()).toMatch(/Invalid Host header/);
    const origin = await post({ host: "localhost:3000", origin: "http://rebind.evil.example:3000" });
    expect(origin.status).toBe(403);
    expect(await origin.text()).toMatch(/Invalid Origin header/);
  });

  it("serves its own hosts and origins", async () => {
    for (const headers of [
      { host: "localhost:3000" } as Record<string, string>,
      { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" },
      { host: "[::1]:3000", origin: "http://localhost:3000" },
    ]) {
      const res = await post(headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(((await res.json()) as { result?: { serverInfo?: unknown } }).result?.serverInfo).toBeDefined();
    }
  });
});
