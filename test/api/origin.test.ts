import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { safeNextPath } from "../../lib/auth/session-cookie.ts";

// Browser writes are checked against this site's exact origin (scheme, host and port), and the
// forwarding headers of a reverse proxy count only when TRUST_PROXY says the proxy is trusted.

// One app at a time: a test app is the process's runtime while it is open.
let direct: TestApp;
let proxied: TestApp;

async function signIn(app: TestApp, headers: Record<string, string>) {
  const res = await app.api("POST", "/api/v1/session", { key: null, body: { apiKey: app.keyA }, headers });
  return {
    res,
    cookie: (res.headers.get("set-cookie") ?? "").split(";")[0],
    setCookie: res.headers.get("set-cookie") ?? "",
  };
}

const write = (app: TestApp, cookie: string, headers: Record<string, string>) =>
  app.api("POST", "/api/v1/bases", {
    key: null,
    body: { baseName: "From a browser" },
    headers: { cookie, ...headers },
  });

describe("without a trusted proxy", () => {
  beforeAll(async () => {
    direct = await createTestApp();
  });
  afterAll(() => direct.close());
  it("ignores X-Forwarded-Proto and X-Forwarded-Host", async () => {
    const { res, setCookie, cookie } = await signIn(direct, {
      origin: "http://localhost",
      "x-forwarded-proto": "https",
    });
    expect(res.status).toBe(201);
    expect(setCookie).not.toMatch(/Secure/);
    const forged = await write(direct, cookie, {
      origin: "https://evil.example",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
    });
    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe("cross_site_request");
  });

  it.each(["https://localhost", "http://localhost:8080", "http://localhost.evil.example"])(
    "refuses a write from %s",
    async (origin) => {
      const { cookie } = await signIn(direct, { origin: "http://localhost" });
      expect((await write(direct, cookie, { origin })).status).toBe(403);
    },
  );

  it("accepts a write from its own origin", async () => {
    const { cookie } = await signIn(direct, { origin: "http://localhost" });
    expect((await write(direct, cookie, { origin: "http://localhost" })).status).toBe(201);
  });
});

describe("behind a trusted proxy (TRUST_PROXY=true)", () => {
  beforeAll(async () => {
    proxied = await createTestApp({ TRUST_PROXY: "true" });
  });
  afterAll(() => proxied.close());
  const forwarded = { "x-forwarded-proto": "https", "x-forwarded-host": "cells.example.com" };

  it("marks the cookie Secure and checks writes against the public origin", async () => {
    const { res, setCookie, cookie } = await signIn(proxied, { origin: "https://cells.example.com", ...forwarded });
    expect(res.status).toBe(201);
    expect(setCookie).toMatch(/; Secure/);
    expect((await write(proxied, cookie, { origin: "https://cells.example.com", ...forwarded })).status).toBe(201);
    expect((await write(proxied, cookie, { origin: "http://cells.example.com", ...forwarded })).status).toBe(403);
    expect((await write(proxied, cookie, { origin: "http://localhost", ...forwarded })).status).toBe(403);
  });
});

describe("the path followed after sign-in", () => {
  it.each([
    ["/bases/AbCd1234", "/bases/AbCd1234"],
    ["/bases?x=1#top", "/bases?x=1#top"],
    ["//evil.example", "/"],
    ["/\t/evil.example", "/"],
    ["/\n/evil.example", "/"],
    ["/\\evil.example", "/"],
    ["https://evil.example", "/"],
    ["/%2F/evil.example", "/%2F/evil.example"],
    ["", "/"],
  ])("%j goes to %j", (next, to) => {
    expect(safeNextPath(next)).toBe(to);
  });

  it("is never another origin, through the auto sign-in redirect either", async () => {
    const key = "cw_originAutoLoginKey0000000000000000000001";
    const auto = await createTestApp({ UI_AUTO_LOGIN: "true", API_KEY: key });
    try {
      const res = await auto.api("GET", "/api/v1/session/auto?next=/%09/evil.example", { key: null });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/");
    } finally {
      await auto.close();
    }
  });
});
