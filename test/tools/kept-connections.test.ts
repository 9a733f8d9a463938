import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { safeFetch, type SafeFetchOptions } from "../../lib/net/index.ts";
import { createFakeDns } from "../support/fake-dns.ts";

// Connections the guard keeps for reuse: only by fetches to the same vetted address, name and port,
// so a reused one reaches exactly what the fetch's own check allowed; and a kept connection that
// breaks when reused costs the fetch nothing.

let server: http.Server;
let port: number;
/** The connections the server accepted, with the local address each came in on. */
const accepted: Socket[] = [];
const requestsOn = new WeakMap<Socket, number>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const n = (requestsOn.get(req.socket) ?? 0) + 1;
    requestsOn.set(req.socket, n);
    // The path /once serves one request a connection: a second one on it is cut, as a server does
    // that closes a kept connection just as it is reused.
    if (req.url === "/once" && n > 1) return void req.socket.destroy();
    res.writeHead(200, { "content-type": "text/plain" }).end("ok");
  });
  server.on("connection", (socket) => accepted.push(socket));
  await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const base: SafeFetchOptions = { maxBytes: 1024 * 1024, timeoutMs: 5_000, connectTimeoutMs: 2_000 };

async function text(url: string, opts: SafeFetchOptions): Promise<string> {
  const res = await safeFetch(url, opts);
  expect(res.status).toBe(200);
  return res.body.toString("utf8");
}

describe("safeFetch: kept connections", () => {
  it("reuses a connection for the same vetted address, and opens another when the name resolves elsewhere", async () => {
    const dns = createFakeDns({ hosts: { "svc.test": [["127.0.0.2"], ["127.0.0.2"], ["127.0.0.3"]] } });
    const opts = { ...base, allowedPrivateHosts: ["svc.test"], lookup: dns.lookup };
    const before = accepted.length;
    expect(await text(`http://svc.test:${port}/a`, opts)).toBe("ok");
    expect(await text(`http://svc.test:${port}/b`, opts)).toBe("ok");
    expect(accepted.length - before).toBe(1);
    // The name now answers another address: a connection of its own, to that address.
    expect(await text(`http://svc.test:${port}/c`, opts)).toBe("ok");
    const opened = accepted.slice(before);
    expect(opened.map((s) => s.localAddress)).toEqual(["127.0.0.2", "127.0.0.3"]);
  });

  it("sends a request again on a fresh connection when the kept one breaks as it is reused", async () => {
    const opts = { ...base, allowedPrivateHosts: ["127.0.0.4"] };
    const before = accepted.length;
    expect(await text(`http://127.0.0.4:${port}/once`, opts)).toBe("ok");
    expect(await text(`http://127.0.0.4:${port}/once`, opts)).toBe("ok");
    expect(accepted.length - before).toBe(2);
  });

  it("does not send a POST again by itself when its kept connection breaks: its caller's retries decide", async () => {
    const opts = { ...base, allowedPrivateHosts: ["127.0.0.5"] };
    expect(await text(`http://127.0.0.5:${port}/once`, opts)).toBe("ok");
    await expect(safeFetch(`http://127.0.0.5:${port}/once`, { ...opts, method: "POST", body: "{}" })).rejects.toThrow();
  });
});
