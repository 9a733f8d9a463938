import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { safeFetch, vetUrl, type GuardOptions } from "../../lib/net/index.ts";
import { AppError } from "../../lib/errors.ts";
import { loadConfig } from "../../lib/config.ts";
import { startPageServer, type PageServer } from "../support/page-server.ts";
import { createFakeDns } from "../support/fake-dns.ts";

// ALLOWED_PRIVATE_HOSTS opens the guard for listed hosts and ranges only: every other private,
// loopback, link-local or metadata address stays blocked, however it is reached.

let pages: PageServer;
beforeAll(async () => {
  pages = await startPageServer();
});
afterAll(() => pages.close());

async function codeOf(p: Promise<unknown>): Promise<string | "ok"> {
  try {
    await p;
    return "ok";
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
}

const dns = createFakeDns({
  hosts: {
    "receiver.internal": ["10.20.0.5"],
    "rebind.example": [["93.184.216.34"], ["10.9.9.9"]],
    "metadata.example": ["169.254.169.254"],
    "v6.internal": ["fd00::7"],
  },
});
const guard = (allowedPrivateHosts: string[]): GuardOptions => ({ allowedPrivateHosts, lookup: dns.lookup });
const vet = (url: string, list: string[]) => codeOf(vetUrl(url, guard(list)));

describe("the allow-list", () => {
  it("lets a listed address through and fetches from it", async () => {
    const res = await safeFetch(`${pages.url}/article`, {
      maxBytes: 1 << 20,
      timeoutMs: 5_000,
      connectTimeoutMs: 2_000,
      allowedPrivateHosts: ["127.0.0.1"],
    });
    expect(res.status).toBe(200);
    expect(await vet("http://10.1.2.3/x", ["10.0.0.0/8"])).toBe("ok");
    expect(await vet("http://[fd00::7]/x", ["fd00::/8"])).toBe("ok");
  });

  it("keeps other private addresses blocked", async () => {
    const list = ["127.0.0.1", "10.0.0.0/24"];
    expect(await vet("http://127.0.0.2/x", list)).toBe("blocked_url");
    expect(await vet("http://10.0.1.1/x", list)).toBe("blocked_url");
    expect(await vet("http://192.168.1.1/x", list)).toBe("blocked_url");
    expect(await vet("http://localhost/x", list)).toBe("blocked_url");
    expect(await vet("http://[::1]/x", list)).toBe("blocked_url");
    expect(await vet("http://[fe80::1]/x", list)).toBe("blocked_url");
    expect(await vet("http://[::ffff:192.168.1.1]/x", list)).toBe("blocked_url");
  });

  it("never opens the metadata address unless it is listed itself", async () => {
    const list = ["127.0.0.0/8", "10.0.0.0/8", "::1"];
    expect(await vet("http://169.254.169.254/latest/meta-data", list)).toBe("blocked_url");
    expect(await vet("http://metadata.example/", list)).toBe("blocked_url");
    expect(await vet("http://[::ffff:169.254.169.254]/", list)).toBe("blocked_url");
  });

  it("matches IPv6 entries and ranges", async () => {
    expect(await vet("http://[::1]:8080/x", ["::1"])).toBe("ok");
    expect(await vet("http://v6.internal/x", ["fd00::/8"])).toBe("ok");
    expect(await vet("http://v6.internal/x", ["fd01::/16"])).toBe("blocked_url");
  });

  it("lets a listed name resolve privately, and no other name", async () => {
    expect(await vet("http://receiver.internal/hook", ["receiver.internal"])).toBe("ok");
    expect(await vet("http://RECEIVER.internal/hook", ["receiver.internal"])).toBe("ok");
    expect(await vet("http://localhost/x", ["localhost"])).not.toBe("blocked_url");
    expect(await vet("http://receiver.internal/hook", ["other.internal"])).toBe("blocked_url");
  });

  it("blocks DNS rebinding onto a private address that is not listed", async () => {
    const list = ["127.0.0.1"];
    expect(await vet("http://rebind.example/", list)).toBe("ok");
    expect(await vet("http://rebind.example/", list)).toBe("blocked_url");
  });
});

describe("configuration", () => {
  it("parses hosts, IPs and CIDRs, and refuses anything else in one line", () => {
    expect(
      loadConfig({ ALLOWED_PRIVATE_HOSTS: " 127.0.0.1, ::1 ,10.0.0.0/8,searx.internal" }).fetch.allowedPrivateHosts,
    ).toEqual(["127.0.0.1", "::1", "10.0.0.0/8", "searx.internal"]);
    expect(loadConfig({}).fetch.allowedPrivateHosts).toEqual([]);
    expect(() => loadConfig({ ALLOWED_PRIVATE_HOSTS: "10.0.0.0/33" })).toThrow(/ALLOWED_PRIVATE_HOSTS: "10.0.0.0\/33"/);
    expect(() => loadConfig({ ALLOWED_PRIVATE_HOSTS: "http://x/" })).toThrow(/not a host name/);
  });

  it("refuses the removed ALLOW_PRIVATE_NETWORK, naming its replacement", () => {
    expect(() => loadConfig({ ALLOW_PRIVATE_NETWORK: "true" })).toThrow(
      /ALLOW_PRIVATE_NETWORK was removed.*ALLOWED_PRIVATE_HOSTS/,
    );
    expect(loadConfig({ ALLOW_PRIVATE_NETWORK: "false" }).fetch.allowedPrivateHosts).toEqual([]);
  });
});
