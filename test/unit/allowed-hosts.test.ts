import { describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config.ts";
import { hostnameOf, hostPolicy, namedHosts, transportLists } from "../../lib/http/allowed-hosts.ts";

// Which Host a request may name (DNS rebinding): localhost, IP addresses, the bound name,
// PUBLIC_URL's host and ALLOWED_HOSTS, compared without ports.

const policyOf = (env: Record<string, string> = {}) => hostPolicy(loadConfig({ DATA_DIR: "./data", ...env }));

describe("the host policy", () => {
  it("by default allows localhost and IP addresses, with any port, and no other name", () => {
    const p = policyOf();
    for (const host of [
      "localhost:3000",
      "LOCALHOST",
      "localhost.:3000",
      "127.0.0.1:3000",
      "[::1]:3000",
      "10.1.2.3:8080",
      "[fe80::1]",
      "2130706433:3000",
    ]) {
      expect(p.allows(host), host).toBe(true);
    }
    for (const host of [
      "rebind.evil.example:3000",
      "evil.example",
      "127.0.0.1.nip.io:3000",
      "localhost.evil.example",
      "0.0.0.0:3000",
      "[::]:3000",
    ]) {
      expect(p.allows(host), host).toBe(false);
    }
  });

  it("refuses a missing, empty or malformed Host", () => {
    const p = policyOf();
    for (const host of [
      undefined,
      "",
      "localhost/evil",
      "evil.example@localhost",
      "local host",
      "[::1",
      "localhost:99999",
    ])
      expect(p.allows(host), String(host)).toBe(false);
  });

  it("adds the bound host name, PUBLIC_URL's host and every ALLOWED_HOSTS name", () => {
    const p = policyOf({
      HOST: "box.lan",
      PUBLIC_URL: "https://Cellwright.Example.com/app",
      ALLOWED_HOSTS: "cellwright, Other.example.",
    });
    expect([...p.names].sort()).toEqual([
      "box.lan",
      "cellwright",
      "cellwright.example.com",
      "localhost",
      "other.example",
    ]);
    for (const host of ["box.lan:3000", "cellwright.example.com", "cellwright:3000", "other.example"])
      expect(p.allows(host), host).toBe(true);
    expect(p.allows("sub.cellwright.example.com")).toBe(false);
  });

  it("refuses a setting that is not a host: a port in ALLOWED_HOSTS, a PUBLIC_URL that is no http(s) URL", () => {
    expect(() => loadConfig({ ALLOWED_HOSTS: "cellwright.example.com:443" })).toThrow(/ALLOWED_HOSTS/);
    expect(() => loadConfig({ ALLOWED_HOSTS: "a b" })).toThrow(/ALLOWED_HOSTS/);
    expect(() => loadConfig({ PUBLIC_URL: "cellwright.example.com" })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ PUBLIC_URL: "ftp://cellwright.example.com" })).toThrow(/PUBLIC_URL/);
    expect(loadConfig({ ALLOWED_HOSTS: "::1,[fe80::1],10.0.0.1" }).allowedHosts).toEqual([
      "::1",
      "[fe80::1]",
      "10.0.0.1",
    ]);
  });

  it("reads X-Forwarded-Host only behind a trusted proxy, and then both names must be allowed", () => {
    const headers = new Headers({
      host: "127.0.0.1:3000",
      "x-forwarded-host": "rebind.evil.example, cellwright.example.com",
    });
    expect(namedHosts(headers, false)).toEqual(["127.0.0.1:3000"]);
    expect(namedHosts(headers, true)).toEqual(["127.0.0.1:3000", "rebind.evil.example"]);
  });

  it("normalises a Host as a URL does", () => {
    expect(hostnameOf("[::1]:80")).toBe("[::1]");
    expect(hostnameOf("0x7f.1:3000")).toBe("127.0.0.1");
    expect(hostnameOf("Example.COM.")).toBe("example.com");
  });
});

describe("the MCP transport's lists", () => {
  it("are the policy's names with and without the request's port, its IP address when it names one, and their origins", () => {
    const p = policyOf({ PUBLIC_URL: "https://cellwright.example.com" });
    const onLoopback = transportLists(p, "127.0.0.1:4000", "https://cellwright.example.com");
    expect(onLoopback.allowedHosts).toEqual(
      expect.arrayContaining([
        "localhost",
        "localhost:4000",
        "cellwright.example.com:4000",
        "127.0.0.1",
        "127.0.0.1:4000",
      ]),
    );
    expect(onLoopback.allowedOrigins).toEqual(
      expect.arrayContaining(["http://localhost:4000", "http://127.0.0.1:4000", "https://cellwright.example.com"]),
    );
    const rebound = transportLists(p, "rebind.evil.example:4000");
    expect(rebound.allowedHosts.some((h) => h.includes("evil"))).toBe(false);
    expect(rebound.allowedOrigins.some((h) => h.includes("evil"))).toBe(false);
  });
});
