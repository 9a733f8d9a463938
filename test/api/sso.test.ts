import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startEdgeServer, type EdgeServer } from "../support/edge-server.ts";
import { startTestIdp, type TestIdp } from "../support/oidc-idp.ts";
import { driveSso, SSO_CALLBACK as CALLBACK, type SsoFlowOptions } from "../support/sso-browser.ts";
import { principalForSession } from "../../lib/auth/session.ts";
import { memberForIdentity } from "../../lib/auth/sso/index.ts";
import { SESSION_COOKIE } from "../../lib/auth/session-cookie.ts";

// Single sign-on against a real OpenID Connect provider on 127.0.0.1, driven over HTTP as a
// browser would: Cellwright → the provider's authorization endpoint → its interaction (signs in
// `idp.login` at once) → back to the callback → a session cookie. Then every way the answer can be
// wrong (audience, nonce, expiry, state) ends in 401 sso_failed and no session.

const CLIENT = { client_id: "cellwright", client_secret: "cellwright-test-secret" };

let idp: TestIdp;
let app: TestApp;
let edge: EdgeServer;

beforeAll(async () => {
  idp = await startTestIdp();
  app = await createTestApp({
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: CLIENT.client_id,
    OIDC_CLIENT_SECRET: CLIENT.client_secret,
    OIDC_DEFAULT_ROLE: "editor",
    OIDC_WORKSPACE: "workspace-b",
  });
  edge = await startEdgeServer();
  idp.start([{ ...CLIENT, redirect_uris: [edge.url + CALLBACK], grant_types: ["authorization_code"] }]);
}, 180_000);
afterAll(async () => {
  await edge?.close();
  await app?.close();
  await idp?.close();
});

/** One sign-in of `login` from start to callback: the callback's answer and the site's cookie jar. */
const signIn = (login: string, flow: SsoFlowOptions = {}) => {
  idp.login = login;
  return driveSso(edge.url, idp.issuer, flow);
};

const sessionCount = async () => app.rt.db.prisma.session.count();
const userByEmail = (email: string) => app.rt.db.prisma.user.findUnique({ where: { email } });

/** 401 sso_failed, no session; `reason` is what the server log says (the browser is told nothing more). */
async function expectRefused(run: () => ReturnType<typeof signIn>, reason: RegExp) {
  const before = await sessionCount();
  const warn = vi.spyOn(console, "warn");
  let answer: Awaited<ReturnType<typeof signIn>>;
  let logged: string;
  try {
    answer = await run();
  } finally {
    logged = warn.mock.calls.map((c) => String(c[0])).join("\n");
    warn.mockRestore();
  }
  const { callback, site, body } = answer;
  expect(logged).toMatch(reason);
  expect(body.error.message).not.toMatch(reason);
  expect(callback.status).toBe(401);
  expect(body.error.code).toBe("sso_failed");
  expect(site.cookies.has(SESSION_COOKIE)).toBe(false);
  expect(site.cookies.has("cellwright_sso")).toBe(false);
  expect(await sessionCount()).toBe(before);
}

describe("single sign-on", () => {
  it("signs a new person in just in time, with the default role in OIDC_WORKSPACE", async () => {
    idp.accounts.set("sub-new", { sub: "sub-new", email: "New.Person@Example.com", email_verified: true, name: "New" });
    const { callback, site } = await signIn("sub-new", { next: "/bases?tab=1" });
    expect(callback.status).toBe(303);
    expect(callback.headers.get("location")).toBe("/bases?tab=1");
    expect(site.cookies.has("cellwright_sso")).toBe(false);
    const token = decodeURIComponent(site.cookies.get(SESSION_COOKIE)!);

    const me = await fetch(`${edge.url}/api/v1/session`, { headers: { cookie: site.header() } });
    expect(await me.json()).toMatchObject({ authenticated: true, workspaceId: app.workspaceB });
    const user = await userByEmail("new.person@example.com");
    expect(user).toMatchObject({ name: "New", oidcIssuer: idp.issuer, oidcSubject: "sub-new", passwordHash: null });
    const principal = await principalForSession(app.rt, token);
    expect(principal).toMatchObject({ workspaceId: app.workspaceB, userId: user!.id, keyId: null, role: "editor" });

    // Again: the same user, found by issuer and subject, even after the provider's email changed.
    idp.accounts.set("sub-new", { sub: "sub-new", email: "renamed@example.com", email_verified: false });
    const again = await signIn("sub-new");
    expect(again.callback.status).toBe(303);
    expect(again.callback.headers.get("location")).toBe("/");
    const second = await principalForSession(app.rt, decodeURIComponent(again.site.cookies.get(SESSION_COOKIE)!));
    expect(second.userId).toBe(user!.id);
    expect(await app.rt.db.prisma.user.count({ where: { oidcSubject: "sub-new" } })).toBe(1);
  });

  it("links the identity to the user with the same (verified) email, who keeps their role", async () => {
    const prisma = app.rt.db.prisma;
    await prisma.user.create({ data: { id: "user_linkme", email: "linked@example.com", name: "Linked" } });
    await prisma.membership.create({ data: { workspaceId: app.workspaceB, userId: "user_linkme", role: "admin" } });
    idp.accounts.set("sub-linked", { sub: "sub-linked", email: "Linked@example.com", email_verified: true });
    const { callback, site } = await signIn("sub-linked");
    expect(callback.status).toBe(303);
    const principal = await principalForSession(app.rt, decodeURIComponent(site.cookies.get(SESSION_COOKIE)!));
    expect(principal).toMatchObject({ userId: "user_linkme", role: "admin", workspaceId: app.workspaceB });
    expect(await userByEmail("linked@example.com")).toMatchObject({
      oidcIssuer: idp.issuer,
      oidcSubject: "sub-linked",
    });
  });

  it("does not take over an address linked to another subject of the provider", async () => {
    idp.accounts.set("sub-imposter", { sub: "sub-imposter", email: "linked@example.com", email_verified: true });
    await expectRefused(() => signIn("sub-imposter"), /linked to another account/);
  });

  it("requires a verified email to link or create a user", async () => {
    idp.accounts.set("sub-unverified", {
      sub: "sub-unverified",
      email: "unverified@example.com",
      email_verified: false,
    });
    await expectRefused(() => signIn("sub-unverified"), /has not verified unverified@example\.com/);
    idp.accounts.set("sub-noemail", { sub: "sub-noemail" });
    await expectRefused(() => signIn("sub-noemail"), /gave no email address/);
    expect(await userByEmail("unverified@example.com")).toBeNull();
  });

  describe("refuses an answer that is not for this sign-in", () => {
    beforeAll(() => {
      idp.accounts.set("sub-ok", { sub: "sub-ok", email: "ok@example.com", email_verified: true });
    });

    it("an ID token for another client (audience)", async () => {
      idp.tamper = (c) => ({ ...c, aud: "another-client", azp: "another-client" });
      try {
        await expectRefused(() => signIn("sub-ok"), /"aud" \(audience\)/);
      } finally {
        idp.tamper = null;
      }
    });

    it("an expired ID token", async () => {
      const now = Math.floor(Date.now() / 1000);
      idp.tamper = (c) => ({ ...c, iat: now - 7_200, exp: now - 3_600 });
      try {
        await expectRefused(() => signIn("sub-ok"), /"exp" \(expiration time\)/);
      } finally {
        idp.tamper = null;
      }
    });

    it("an ID token re-signed with changed claims still passes as the provider's (the tamper hook is sound)", async () => {
      idp.tamper = (c) => ({ ...c, name: "rewritten" });
      try {
        expect((await signIn("sub-ok")).callback.status).toBe(303);
      } finally {
        idp.tamper = null;
      }
    });

    it("a wrong nonce", async () => {
      await expectRefused(() => signIn("sub-ok", { flowCookie: (f) => ({ ...f, nonce: "not-the-nonce" }) }), /"nonce"/);
    });

    it("a wrong state", async () => {
      await expectRefused(
        () => signIn("sub-ok", { callbackUrl: (u) => u.searchParams.set("state", "forged") }),
        /"state"/,
      );
    });

    it("a callback without the flow cookie, or with one this server did not write", async () => {
      await expectRefused(() => signIn("sub-ok", { flowCookie: () => ({}) }), /no sign-in in progress/);
      await expectRefused(
        () => signIn("sub-ok", { flowCookie: (f) => ({ ...f, verifier: 42 }) as never }),
        /no sign-in in progress/,
      );
    });

    it("a wrong PKCE verifier", async () => {
      await expectRefused(
        () => signIn("sub-ok", { flowCookie: (f) => ({ ...f, verifier: "x".repeat(43) }) }),
        /invalid_grant/,
      );
    });

    it("the provider's own error", async () => {
      await expectRefused(
        () =>
          signIn("sub-ok", {
            callbackUrl: (u) => {
              u.searchParams.delete("code");
              u.searchParams.set("error", "access_denied");
            },
          }),
        /authorization response from the server is an error/,
      );
    });

    it("sends a browser to the sign-in page, which says so", async () => {
      const { callback, site } = await signIn("sub-ok", {
        accept: "text/html,application/xhtml+xml",
        callbackUrl: (u) => u.searchParams.set("state", "forged"),
      });
      expect(callback.status).toBe(303);
      expect(callback.headers.get("location")).toBe("/sign-in?error=sso_failed");
      expect(site.cookies.has(SESSION_COOKIE)).toBe(false);
    });
  });

  it("goes only to a path of this site afterwards", async () => {
    for (const next of ["//evil.example/x", "https://evil.example/", "/\\evil.example"]) {
      const { callback } = await signIn("sub-ok", { next });
      expect(callback.status).toBe(303);
      expect(callback.headers.get("location")).toBe("/");
    }
  });

  it("asks the provider for a code with PKCE (S256), state and nonce, and keeps them in a Lax httpOnly cookie", async () => {
    const res = await fetch(`${edge.url}/api/v1/session/sso`, { redirect: "manual" });
    const url = new URL(res.headers.get("location")!);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: CLIENT.client_id,
      response_type: "code",
      redirect_uri: edge.url + CALLBACK,
      code_challenge_method: "S256",
      scope: "openid email profile",
    });
    for (const p of ["state", "nonce", "code_challenge"]) expect(url.searchParams.get(p)).toMatch(/^[\w-]{40,}$/);
    expect(res.headers.get("set-cookie")).toMatch(
      /^cellwright_sso=[\w-]+; Path=\/api\/v1\/session\/sso; HttpOnly; SameSite=Lax; Max-Age=600$/,
    );
  });

  it("answers 404 sso_not_configured when it is not configured", async () => {
    const config = app.rt.config as { oidc: unknown };
    const saved = config.oidc;
    config.oidc = null;
    try {
      const res = await app.api("GET", "/api/v1/session/sso", { key: null });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("sso_not_configured");
    } finally {
      config.oidc = saved;
    }
  });

  it("puts new people in the oldest workspace when OIDC_WORKSPACE is unset", async () => {
    const settings = { ...app.rt.config.oidc!, workspace: null, defaultRole: "viewer" as const };
    const identity = { issuer: idp.issuer, subject: "sub-oldest", email: "oldest@example.com", emailVerified: true };
    const member = await memberForIdentity(app.rt, settings, { ...identity, name: "" });
    expect(member.workspaceId).toBe(app.workspaceA);
    const role = await app.rt.db.prisma.membership.findUnique({
      where: { workspaceId_userId: { workspaceId: app.workspaceA, userId: member.userId } },
    });
    expect(role?.role).toBe("viewer");
  });
});
