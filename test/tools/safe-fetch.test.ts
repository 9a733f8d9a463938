import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertPublicUrl, safeFetch, type SafeFetchOptions } from "../../lib/net/index.ts";
import { AppError } from "../../lib/errors.ts";
import { startPageServer, type PageServer } from "../support/page-server.ts";
import { createFakeDns } from "../support/fake-dns.ts";
import { waitFor } from "../support/wait.ts";

let pages: PageServer;
// A second loopback listener that blocked requests aim at: it must never see a connection.
let trap: PageServer;

beforeAll(async () => {
  [pages, trap] = await Promise.all([startPageServer(), startPageServer()]);
});
afterAll(async () => {
  await Promise.all([pages.close(), trap.close()]);
});

const base: SafeFetchOptions = { maxBytes: 1024 * 1024, timeoutMs: 5_000, connectTimeoutMs: 2_000 };
// "localhost" too: the cross-origin redirect test needs a second name for the same server.
const local = { ...base, allowedPrivateHosts: ["127.0.0.1", "::1", "localhost"] };

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
  throw new Error("expected the promise to reject");
}

describe("safeFetch guard: bypass spellings", () => {
  const spellings = (port: number) => [
    `http://127.0.0.1:${port}/`,
    `http://127.1:${port}/`,
    `http://0x7f.1:${port}/`,
    `http://0x7f000001:${port}/`,
    `http://2130706433:${port}/`,
    `http://0177.0.0.1:${port}/`,
    `http://017700000001:${port}/`,
    `http://127.0.0.1.:${port}/`,
    `http://0.0.0.0:${port}/`,
    `http://0:${port}/`,
    `http://[::]:${port}/`,
    `http://[::1]:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    `http://[0:0:0:0:0:ffff:7f00:1]:${port}/`,
    `http://[64:ff9b::127.0.0.1]:${port}/`,
    `http://[2002:7f00:1::1]:${port}/`,
    `http://localhost:${port}/`,
    `http://LOCALHOST.:${port}/`,
    `http://api.localhost:${port}/`,
    `http://user:pass@127.0.0.1:${port}/`,
    `https://127.0.0.1:${port}/`,
    `http://10.0.0.1:${port}/`,
    `http://172.16.5.4:${port}/`,
    `http://192.168.0.1:${port}/`,
    `http://169.254.169.254/latest/meta-data/`,
    `http://100.64.0.1/`,
    `http://224.0.0.1/`,
    `http://255.255.255.255/`,
    `http://240.0.0.1/`,
    `http://[fc00::1]/`,
    `http://[fe80::1]/`,
  ];

  it("blocks every spelling and never connects", async () => {
    const port = trap.port;
    for (const url of spellings(port)) {
      const code = await codeOf(safeFetch(url, base));
      expect(code, url).toBe("blocked_url");
    }
    expect(trap.connections()).toBe(0);
  });

  it("blocks hostnames that resolve to private addresses, including mixed answers", async () => {
    const dns = createFakeDns({
      hosts: {
        "internal.test": ["10.0.0.7"],
        "sneaky.test": ["93.184.216.34", "127.0.0.1"],
        "v6.test": ["::ffff:127.0.0.1"],
      },
    });
    for (const host of ["internal.test", "sneaky.test", "v6.test"]) {
      expect(await codeOf(safeFetch(`http://${host}:${trap.port}/`, { ...base, lookup: dns.lookup }))).toBe(
        "blocked_url",
      );
    }
    expect(trap.connections()).toBe(0);
  });

  it.each(["file:///etc/passwd", "ftp://example.com/x", "gopher://127.0.0.1:70/", "data:text/plain,hi", "not a url"])(
    "rejects %s as blocked_url",
    async (url) => {
      expect(await codeOf(safeFetch(url, local))).toBe("blocked_url");
    },
  );

  it("lets ALLOWED_PRIVATE_HOSTS reach loopback", async () => {
    const res = await safeFetch(`${pages.url}/article`, local);
    expect(res.status).toBe(200);
    expect(res.contentType).toBe("text/html");
    expect(res.charset).toBe("utf-8");
    expect(res.body.toString()).toContain("Heat Pumps");
    expect(res.finalUrl).toBe(`${pages.url}/article`);
  });
});

describe("safeFetch redirects", () => {
  const onlyPages = () => ({ ...base, allowedTargets: [{ address: "127.0.0.1", port: pages.port }] });

  it("follows up to five hops and reports the final URL", async () => {
    const res = await safeFetch(`${pages.url}/redirect?hops=5&to=/article`, local);
    expect(res.status).toBe(200);
    expect(res.finalUrl).toBe(`${pages.url}/article`);
  });

  it("fails on the sixth hop, or sooner with a lower maxRedirects", async () => {
    expect(await codeOf(safeFetch(`${pages.url}/redirect?hops=6&to=/article`, local))).toBe("fetch_failed");
    expect(await codeOf(safeFetch(`${pages.url}/redirect?hops=2`, { ...local, maxRedirects: 1 }))).toBe("fetch_failed");
  });

  it("re-vets every hop: a redirect to a private address is blocked before connecting", async () => {
    const targets = [
      `http://127.0.0.1:${trap.port}/`,
      `http://[::ffff:7f00:1]:${trap.port}/`,
      "http://169.254.169.254/latest/meta-data/",
      "file:///etc/passwd",
    ];
    for (const to of targets) {
      const url = `${pages.url}/redirect?to=${encodeURIComponent(to)}`;
      expect(await codeOf(safeFetch(url, onlyPages())), to).toBe("blocked_url");
    }
    expect(trap.connections()).toBe(0);
    // The exception really applied: the first hop was fetched.
    expect(pages.requests.filter((p) => p === "/redirect").length).toBeGreaterThanOrEqual(targets.length);
  });

  it("returns the redirect itself when followRedirects is false", async () => {
    const res = await safeFetch(`${pages.url}/redirect?to=/article`, { ...local, followRedirects: false });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/article");
  });

  it("drops credentials on a cross-origin redirect and keeps them on the same origin", async () => {
    const headers = { authorization: "Bearer secret", "x-other": "kept" };
    const same = await safeFetch(`${pages.url}/redirect?to=/echo`, { ...local, headers });
    expect(JSON.parse(same.body.toString()).headers.authorization).toBe("Bearer secret");
    const cross = `${pages.url}/redirect?to=${encodeURIComponent(`http://localhost:${pages.port}/echo`)}`;
    const res = await safeFetch(cross, { ...local, headers });
    const echoed = JSON.parse(res.body.toString()).headers;
    expect(echoed.authorization).toBeUndefined();
    expect(echoed["x-other"]).toBe("kept");
  });

  it("turns POST into GET on 303", async () => {
    const res = await safeFetch(`${pages.url}/redirect?status=303&to=/echo`, {
      ...local,
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(JSON.parse(res.body.toString()).method).toBe("GET");
  });
});

describe("safeFetch DNS pinning", () => {
  it("resolves once and connects to the vetted address even if DNS later changes", async () => {
    // First answer: the (allowed) page server; any later answer would be the metadata service.
    const dns = createFakeDns({ hosts: { "rebind.test": [["127.0.0.1"], ["169.254.169.254"]] } });
    const res = await safeFetch(`http://rebind.test:${pages.port}/echo`, {
      ...base,
      lookup: dns.lookup,
      allowedTargets: [{ address: "127.0.0.1", port: pages.port }],
    });
    expect(dns.lookupCalls).toEqual(["rebind.test"]);
    expect(JSON.parse(res.body.toString()).headers.host).toBe(`rebind.test:${pages.port}`);
  });

  it("an allowed target on one port does not open other ports", async () => {
    const opts = { ...base, allowedTargets: [{ address: "127.0.0.1", port: pages.port }] };
    expect(await codeOf(safeFetch(`http://127.0.0.1:${trap.port}/`, opts))).toBe("blocked_url");
    expect(trap.connections()).toBe(0);
  });

  it("reports unresolvable hosts as fetch_failed", async () => {
    const dns = createFakeDns();
    expect(await codeOf(safeFetch("http://nowhere.test/", { ...base, lookup: dns.lookup }))).toBe("fetch_failed");
  });
});

describe("safeFetch limits", () => {
  it("caps a 50 MB body: error by default, first maxBytes with truncate", async () => {
    const started = Date.now();
    expect(await codeOf(safeFetch(`${pages.url}/huge`, local))).toBe("payload_too_large");
    const res = await safeFetch(`${pages.url}/huge`, { ...local, truncate: true });
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(base.maxBytes);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it("refuses a declared Content-Length over the cap without reading", async () => {
    expect(await codeOf(safeFetch(`${pages.url}/huge-declared`, local))).toBe("payload_too_large");
  });

  it("stops a gzip bomb after decompression", async () => {
    const started = Date.now();
    expect(await codeOf(safeFetch(`${pages.url}/gzip-bomb`, local))).toBe("payload_too_large");
    const res = await safeFetch(`${pages.url}/gzip-bomb`, { ...local, truncate: true });
    expect(res.body.length).toBe(base.maxBytes);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it("decodes gzip and brotli bodies, and rejects corrupt ones", async () => {
    for (const path of ["/gzip-article", "/br-article"]) {
      const res = await safeFetch(`${pages.url}${path}`, local);
      expect(res.body.toString()).toContain("<h1>The Quiet Rise of Heat Pumps</h1>");
    }
    expect(await codeOf(safeFetch(`${pages.url}/bad-gzip`, local))).toBe("fetch_failed");
  });

  it("refuses an unknown Content-Encoding and lets go of the connection", async () => {
    expect(await codeOf(safeFetch(`${pages.url}/odd-encoding`, local))).toBe("fetch_failed");
    await waitFor(() => pages.openDrips() === 0, "the server to see the connection closed", 3_000);
  });

  it("times out a slow drip body as a whole", async () => {
    const started = Date.now();
    expect(await codeOf(safeFetch(`${pages.url}/slow`, { ...local, timeoutMs: 400 }))).toBe("timeout");
    // The drip never ends: only the whole-fetch deadline can have stopped it, busy machine or not.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("times out a server that never answers", async () => {
    expect(await codeOf(safeFetch(`${pages.url}/hang`, { ...local, timeoutMs: 300 }))).toBe("timeout");
  });

  it("passes the caller's abort reason through", async () => {
    const ctl = new AbortController();
    const p = safeFetch(`${pages.url}/hang`, { ...local, signal: ctl.signal });
    const reason = new Error("cell cancelled");
    setTimeout(() => ctl.abort(reason), 50);
    await expect(p).rejects.toBe(reason);
  });

  it("reports a refused connection as fetch_failed", async () => {
    const gone = await startPageServer();
    const url = `${gone.url}/article`;
    await gone.close();
    expect(await codeOf(safeFetch(url, local))).toBe("fetch_failed");
  });
});

describe("assertPublicUrl", () => {
  it("accepts public targets and rejects private ones", async () => {
    const dns = createFakeDns({ hosts: { "hooks.example.com": ["93.184.216.34"], "intranet.test": ["192.168.0.9"] } });
    const url = await assertPublicUrl("https://hooks.example.com/in", { lookup: dns.lookup });
    expect(url.hostname).toBe("hooks.example.com");
    await expect(assertPublicUrl("https://8.8.8.8/x")).resolves.toBeInstanceOf(URL);
    expect(await codeOf(assertPublicUrl("https://intranet.test/", { lookup: dns.lookup }))).toBe("blocked_url");
    expect(await codeOf(assertPublicUrl("http://[::1]/"))).toBe("blocked_url");
    expect(await codeOf(assertPublicUrl("ftp://hooks.example.com/", { lookup: dns.lookup }))).toBe("blocked_url");
    const ok = await assertPublicUrl("http://127.0.0.1:9/", { allowedPrivateHosts: ["127.0.0.1", "::1"] });
    expect(ok.port).toBe("9");
  });
});
