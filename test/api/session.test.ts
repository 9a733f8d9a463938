import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";

// Browser sign-in: an API key is exchanged for an httpOnly session cookie, which then
// authenticates the API like X-API-Key, with an Origin check on writes.

let app: TestApp;
const ORIGIN = "http://localhost";

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

async function signIn(key = app.keyA) {
  const res = await app.api("POST", "/api/v1/session", {
    key: null,
    body: { apiKey: key },
    headers: { origin: ORIGIN },
  });
  const setCookie = res.headers.get("set-cookie") ?? "";
  const cookie = setCookie.split(";")[0];
  return { res, setCookie, cookie };
}

describe("session sign-in", () => {
  it("sets an httpOnly, SameSite=Strict cookie (Secure only over HTTPS) and answers who is signed in", async () => {
    const { res, setCookie, cookie } = await signIn();
    expect(res.status).toBe(201);
    expect(res.body.workspaceId).toBe(app.workspaceA);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).not.toMatch(/Secure/);
    expect(res.text).not.toContain(app.keyA);

    const me = await app.api("GET", "/api/v1/session", { key: null, headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ authenticated: true, workspaceId: app.workspaceA });
    const nobody = await app.api("GET", "/api/v1/session", { key: null });
    expect(nobody.body).toEqual({ authenticated: false, ssoEnabled: false });
    const bases = await app.api("GET", "/api/v1/bases", { key: null, headers: { cookie } });
    expect(bases.status).toBe(200);
  });

  it("rejects an unknown key with 401 and sets no cookie", async () => {
    const { res, setCookie } = await signIn("cw_notAKey");
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("invalid_api_key");
    expect(setCookie).toBe("");
  });

  it("refuses cookie-authenticated writes from another origin, and accepts same-origin ones", async () => {
    const { cookie } = await signIn();
    const body = { baseName: "From the browser" };
    const evil = await app.api("POST", "/api/v1/bases", {
      key: null,
      body,
      headers: { cookie, origin: "https://evil.example" },
    });
    expect(evil.status).toBe(403);
    expect(evil.body.error.code).toBe("cross_site_request");
    const none = await app.api("POST", "/api/v1/bases", { key: null, body, headers: { cookie } });
    expect(none.status).toBe(403);
    const ok = await app.api("POST", "/api/v1/bases", { key: null, body, headers: { cookie, origin: ORIGIN } });
    expect(ok.status).toBe(201);
    const fetchSite = await app.api("POST", "/api/v1/bases", {
      key: null,
      body,
      headers: { cookie, "sec-fetch-site": "same-origin" },
    });
    expect(fetchSite.status).toBe(201);
  });

  it("signs out: the cookie is cleared and the session no longer works", async () => {
    const { cookie } = await signIn();
    const out = await app.api("DELETE", "/api/v1/session", { key: null, headers: { cookie, origin: ORIGIN } });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    const after = await app.api("GET", "/api/v1/bases", { key: null, headers: { cookie } });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("invalid_session");
  });

  it("revoking the key ends its sessions", async () => {
    const created = await app.api("POST", "/api/v1/api-keys", { body: { name: "browser" } });
    expect(created.status).toBe(201);
    const { cookie } = await signIn(created.body.key);
    expect((await app.api("GET", "/api/v1/bases", { key: null, headers: { cookie } })).status).toBe(200);
    const revoke = await app.api("DELETE", `/api/v1/api-keys/${created.body.id}`);
    expect(revoke.status).toBe(200);
    const after = await app.api("GET", "/api/v1/bases", { key: null, headers: { cookie } });
    expect(after.status).toBe(401);
  });

  it("keeps a session inside its workspace", async () => {
    const { cookie } = await signIn(app.keyB);
    const other = await app.api("POST", "/api/v1/bases", { body: { baseName: "A only" } });
    const res = await app.api("GET", `/api/v1/bases/${other.body.baseId}`, { key: null, headers: { cookie } });
    expect(res.status).toBe(404);
  });

  it("auto sign-in does not exist unless UI_AUTO_LOGIN is on", async () => {
    const res = await app.api("GET", "/api/v1/session/auto?next=/", { key: null });
    expect(res.status).toBe(404);
  });
});

describe("UI_AUTO_LOGIN", () => {
  it("signs the browser in with API_KEY and follows only same-site paths", async () => {
    const key = "cw_autoLoginKey000000000000000000000000000";
    const auto = await createTestApp({ UI_AUTO_LOGIN: "true", API_KEY: key });
    try {
      const res = await auto.api("GET", "/api/v1/session/auto?next=%2Fbases%2FabcdEFGH", { key: null });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/bases/abcdEFGH");
      const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
      const me = await auto.api("GET", "/api/v1/session", { key: null, headers: { cookie } });
      expect(me.body.authenticated).toBe(true);
      const evil = await auto.api("GET", "/api/v1/session/auto?next=%2F%2Fevil.example", { key: null });
      expect(evil.headers.get("location")).toBe("/");
    } finally {
      await auto.close();
    }
  });
});
