import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pickServerPort, startServerProcess, type ServerProcess } from "../support/server-process.ts";

// The real server, asked what a hostile or careless client sends: every answer under /api is
// JSON from the error catalog, with the right status, and never a redirect, an HTML page or a 500.

const KEY = "cw_edgeTestKey000000000000000000000000000001";
let server: ServerProcess;
let dataDir: string;

/** Sends the path exactly as written (fetch would normalise it first). */
function raw(
  method: string,
  rawPath: string,
): Promise<{ status: number; type: string; allow?: string; body: string; headers: Record<string, unknown> }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path: rawPath, headers: { "x-api-key": KEY } }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          type: String(res.headers["content-type"] ?? ""),
          allow: res.headers.allow,
          body,
          headers: res.headers,
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "cw-edge-"));
  server = await startServerProcess({ DATA_DIR: dataDir, API_KEY: KEY }, await pickServerPort());
}, 300_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the /api edge of the real server", () => {
  it.each([
    ["GET", "/api/nope", 404, "not_found"],
    ["GET", "/api", 404, "not_found"],
    ["GET", "/api/v1/bases/", 404, "not_found"],
    ["GET", "/api//v1/bases", 404, "not_found"],
    ["DELETE", "/api/v1/bases/x/columns/y/..?force=true", 404, "not_found"],
    ["GET", "/api/v1/bases/x/./rows", 404, "not_found"],
    ["GET", "/api/v1/bases/%2e%2e/rows", 404, "not_found"],
    ["GET", "/api/v1/bases/%00", 404, "not_found"],
    ["GET", "/api/v1/bases/a%20b", 404, "base_not_found"],
    ["GET", "/api/v1/bases/%E0%A4%A", 400, "invalid_path"],
    ["TRACE", "/api/v1/bases", 405, "method_not_allowed"],
    ["PROPFIND", "/api/v1/bases/x/rows", 405, "method_not_allowed"],
    ["PUT", "/api/v1/bases", 405, "method_not_allowed"],
    // Refused by Node's HTTP parser, before any handler: still JSON from the catalog.
    ["FOO", "/api/v1/bases", 400, "malformed_request"],
  ])("%s %s answers %i %s in JSON", async (method, p, status, code) => {
    const res = await raw(method, p);
    expect(res.status).toBe(status);
    expect(res.type).toMatch(/^application\/json/);
    expect(JSON.parse(res.body).error.code).toBe(code);
  });

  it("names the methods a path serves in Allow, for OPTIONS and for a method it does not serve", async () => {
    expect(await raw("OPTIONS", "/api/v1/bases")).toMatchObject({ status: 204, allow: "GET, POST, HEAD, OPTIONS" });
    expect(await raw("OPTIONS", "/api/v1/bases/AbCd1234/rows")).toMatchObject({
      status: 204,
      allow: "GET, HEAD, OPTIONS",
    });
    expect(await raw("TRACE", "/api/v1/bases/AbCd1234/add-rows")).toMatchObject({
      status: 405,
      allow: "POST, OPTIONS",
    });
    expect(await raw("OPTIONS", "/api/health")).toMatchObject({ status: 204, allow: "GET, HEAD, OPTIONS" });
  });

  it("still serves the canonical paths", async () => {
    expect(await raw("GET", "/api/v1/bases")).toMatchObject({ status: 200 });
    expect((await raw("GET", "/api/health")).status).toBe(200);
  });

  it("does not serve the benchmark floor unless asked to", async () => {
    const res = await raw("GET", "/api/bench-floor");
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body).error.code).toBe("not_found");
  });

  it.each(["/api/v1/bases", "/api/nope", "/sign-in"])(
    "sends the security headers with %s, and no HSTS over plain HTTP",
    async (p) => {
      const { headers } = await raw("GET", p);
      expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(headers["strict-transport-security"]).toBeUndefined();
    },
  );

  it("listens on the loopback interface by default", () => {
    expect(server.output()).toContain("listening on http://127.0.0.1:");
  });
});
