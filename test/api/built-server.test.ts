import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { rawRequest } from "../support/edge-server.ts";
import { freshDatabaseTarget } from "../support/database.ts";
import { pickServerPort, startServerProcess, type ServerProcess } from "../support/server-process.ts";

// What only the built server shows. Next.js bundles the runtime (and its rate limiter) apart from
// the route handlers, so an error class crosses bundles there and nowhere in the unit suites: past
// a low limit the server must answer 429 rate_limited with Retry-After and the RateLimit fields,
// never 500. And the host check of the real `npm start` edge, for the API, MCP and pages. With
// TEST_DATABASE_URL the server runs on PostgreSQL, whose limiter shares its buckets in a table.

const KEY = "cw_builtServerKey000000000000000000000000001";
let server: ServerProcess;
let dataDir: string;
let port: string;
let drop: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "cw-built-"));
  const db = await freshDatabaseTarget();
  drop = db.drop;
  const database: Record<string, string> = db.target.kind === "postgres" ? { DATABASE_URL: db.target.url } : {};
  server = await startServerProcess(
    { DATA_DIR: dataDir, ...database, API_KEY: KEY, UI_AUTO_LOGIN: "true", API_RATE_LIMIT: "5", API_RATE_BURST: "10" },
    await pickServerPort(),
  );
  port = new URL(server.url).port;
}, 300_000);
afterAll(async () => {
  await server?.stop();
  await drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const MCP_INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});
const MCP_HEADERS: Record<string, string> = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  authorization: `Bearer ${KEY}`,
};

describe("the built server", () => {
  // First, while the key's bucket is full: the host checks spend none of it but the MCP ones.
  it.each([
    ["GET", "/api/v1/session/auto?next=/", {}],
    ["GET", "/api/v1/bases", { "x-api-key": KEY }],
    ["POST", "/mcp", MCP_HEADERS],
    ["GET", "/", {}],
  ] as [string, string, Record<string, string>][])(
    "refuses %s %s naming a rebound host with 421 and no cookie",
    async (method, p, headers) => {
      const res = await rawRequest(server.url, {
        method,
        path: p,
        headers: { ...headers, host: `rebind.evil.example:${port}` },
        body: method === "POST" ? MCP_INIT : undefined,
      });
      expect(res.status).toBe(421);
      expect(res.headers["set-cookie"]).toBeUndefined();
      expect(JSON.parse(res.text).error.code).toBe("host_not_allowed");
    },
  );

  it("serves its own hosts: auto sign-in on localhost, a page on 127.0.0.1, MCP with its own origin but not another", async () => {
    const auto = await rawRequest(server.url, {
      method: "GET",
      path: "/api/v1/session/auto?next=/",
      headers: { host: `localhost:${port}` },
    });
    expect(auto.status).toBe(303);
    expect(String(auto.headers["set-cookie"])).toMatch(/^cellwright_session=/);
    const page = await rawRequest(server.url, { method: "GET", path: "/", headers: { host: `127.0.0.1:${port}` } });
    expect(page.status).toBeLessThan(400);
    const own = await rawRequest(server.url, {
      method: "POST",
      path: "/mcp",
      headers: { ...MCP_HEADERS, host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` },
      body: MCP_INIT,
    });
    expect(own.status, own.text).toBe(200);
    const foreign = await rawRequest(server.url, {
      method: "POST",
      path: "/mcp",
      headers: { ...MCP_HEADERS, host: `127.0.0.1:${port}`, origin: "http://rebind.evil.example" },
      body: MCP_INIT,
    });
    expect(foreign.status).toBe(403);
  });

  it("answers past API_RATE_LIMIT=5, API_RATE_BURST=10 with 429 rate_limited, Retry-After and RateLimit, never a 500", async () => {
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        rawRequest(server.url, { method: "GET", path: "/api/v1/bases", headers: { "x-api-key": KEY } }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s >= 500),
      statuses.join(" "),
    ).toEqual([]);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length, statuses.join(" ")).toBeGreaterThan(0);
    // At most the burst and what refilled while they were answered: the limit holds, too.
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(10 + Math.ceil(5 * seconds));
    expect(limited.length + answers.filter((a) => a.status === 200).length).toBe(60);
    for (const res of limited) {
      expect(JSON.parse(res.text).error.code).toBe("rate_limited");
      expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(res.headers["ratelimit-policy"]).toBe('"burst";q=10;w=2');
      expect(res.headers.ratelimit).toMatch(/^"burst";r=0;t=\d+$/);
    }
    const served = answers.find((a) => a.status === 200)!;
    expect(served.headers["ratelimit-policy"]).toBe('"burst";q=10;w=2');
  });
});
