import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { pickServerPort, startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { call, callError, connect } from "./helpers.ts";

// Against the real server (the production build): the MCP endpoint over the network, the stdio
// bridge of `npm run cli -- mcp`, and the pages for people and agents (/docs, /llms.txt).

const KEY = "cw_mcpservermcpservermcpservermcpserver0";
const root = path.resolve(import.meta.dirname, "../..");
let dataDir: string;
let server: ServerProcess;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "cw-mcp-"));
  server = await startServerProcess({ DATA_DIR: dataDir, API_KEY: KEY }, await pickServerPort());
}, 300_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the running server", () => {
  it("serves MCP over Streamable HTTP to the SDK client", async () => {
    const client = await connect(KEY, { url: `${server.url}/mcp` });
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThanOrEqual(12);
      const created = await call(client, "create_base", { baseName: "Over HTTP" });
      expect(created.result.baseId).toMatch(/^\w{8}$/);
      expect((await call(client, "list_bases")).result.bases.map((b: any) => b.name)).toContain("Over HTTP");
      expect((await callError(client, "get_base_structure", { baseId: "NoSuch12" })).code).toBe("base_not_found");
    } finally {
      await client.close();
    }
  });

  it("forwards a stdio client to the server with npm run cli -- mcp", async () => {
    const transport = new StdioClientTransport({
      command: "npx",
      args: ["--no-install", "tsx", "lib/cli/index.ts", "mcp"],
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        CELLWRIGHT_URL: server.url,
        CELLWRIGHT_API_KEY: KEY,
      },
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("query_rows");
      expect((await call(client, "list_bases")).result.bases.map((b: any) => b.name)).toContain("Over HTTP");
    } finally {
      await client.close();
    }
  }, 60_000);

  it("serves /docs with its viewer bundled, /llms.txt and the OpenAPI document, without a key", async () => {
    const docs = await fetch(`${server.url}/docs`);
    expect(docs.status).toBe(200);
    const html = await docs.text();
    expect(html).toContain("/api/v1/openapi.json");
    expect(html).toContain('src="/docs/scalar.js"');
    const bundle = await fetch(`${server.url}/docs/scalar.js`);
    expect([bundle.status, bundle.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    // Without TRUST_PROXY a forged X-Forwarded-Host changes no link, and the answer says what it varies on.
    const llmsRes = await fetch(`${server.url}/llms.txt`, { headers: { "x-forwarded-host": "evil.example" } });
    expect(llmsRes.status).toBe(200);
    // Next.js adds its own fields (rsc, Accept-Encoding) to ours.
    expect(
      llmsRes.headers
        .get("vary")
        ?.split(",")
        .map((f) => f.trim()),
    ).toContain("Host");
    expect(llmsRes.headers.get("cache-control")).toBe("public, max-age=300");
    const llms = await llmsRes.text();
    expect(llms).not.toContain("evil.example");
    expect(llms).toMatch(/^# Cellwright\n\n> /);
    expect(llms).toContain(`${server.url}/api/v1/openapi.json`);
    expect(llms).toContain("`query_rows`");
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as any;
    expect(doc.paths["/api/v1/bases/{baseId}/add-rows"].post).toBeDefined();
  });
});
