import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { hostPolicy } from "../../lib/http/allowed-hosts.ts";
import { edgeListener } from "../../lib/http/edge-listener.ts";

// The edge hands the health check to the app without the client's Accept-Encoding, so that its
// small answer is never compressed; every other request keeps it.
let server: Server;
let url: string;
beforeAll(async () => {
  const policy = hostPolicy({ host: "127.0.0.1", publicUrl: undefined, allowedHosts: [] });
  server = createServer(
    edgeListener(false, policy, (req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ acceptEncoding: req.headers["accept-encoding"] ?? null }));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const seen = async (path: string) =>
  ((await (await fetch(url + path, { headers: { "accept-encoding": "gzip" } })).json()) as { acceptEncoding: string })
    .acceptEncoding;

it("passes the health check on without Accept-Encoding", async () => {
  expect(await seen("/api/health")).toBeNull();
  expect(await seen("/api/health?x=1")).toBeNull();
});

it("keeps Accept-Encoding on every other request", async () => {
  expect(await seen("/api/healthz")).toBe("gzip");
  expect(await seen("/")).toBe("gzip");
});
