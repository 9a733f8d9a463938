import { describe, expect, it } from "vitest";
import {
  accept,
  cookieOf,
  getWith,
  invite,
  join,
  ORIGIN,
  PASSWORD,
  sendWith,
  signInWithPassword,
  useAppWithOwner,
} from "../support/people.ts";
import { createApiKey } from "../../lib/auth/api-keys.ts";
import { loadConfig } from "../../lib/config.ts";

// People sign in with email and password; GET /session says who they are and what they may do;
// signing out everywhere ends every session; a reset link sets a new password once.

const t = useAppWithOwner();

describe("sign-in by password", () => {
  it("signs in with the right password, in any case of the email", async () => {
    const { res, cookie } = await signInWithPassword(t.app, "Owner@Example.com");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ workspaceId: t.app.workspaceA, keyId: null, userId: t.owner.userId });
    expect(res.headers.get("set-cookie")).toMatch(/HttpOnly/);
    expect((await getWith(t.app, "/api/v1/bases", cookie)).status).toBe(200);
  });

  it("answers 401 invalid_credentials alike for a wrong password and an unknown email, with no cookie", async () => {
    const wrong = await signInWithPassword(t.app, "owner@example.com", "not the password");
    const unknown = await signInWithPassword(t.app, "nobody@example.com");
    for (const { res } of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("invalid_credentials");
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    expect(wrong.res.body.error.message).toBe(unknown.res.body.error.message);
  });

  it("refuses an email after 10 wrong passwords, even with the right one, for a while", async () => {
    await join(t.app, "viewer", "guessed@example.com");
    for (let i = 0; i < 10; i++) {
      const { res } = await signInWithPassword(t.app, "guessed@example.com", `wrong guess ${i}`);
      expect(res.body.error.code).toBe("invalid_credentials");
    }
    const { res } = await signInWithPassword(t.app, "Guessed@example.com");
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe("rate_limited");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("refuses a sign-in from another site", async () => {
    const res = await t.app.api("POST", "/api/v1/session", {
      key: null,
      body: { email: "owner@example.com", password: PASSWORD },
      headers: { origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("cross_site_request");
  });

  it("signs in to the named workspace, or the oldest membership", async () => {
    const ws = await t.app.rt.db.prisma.workspace.findUniqueOrThrow({ where: { id: t.app.workspaceB } });
    await t.app.rt.db.prisma.membership.create({
      data: { workspaceId: t.app.workspaceB, userId: t.owner.userId, role: "viewer" },
    });
    const b = await signInWithPassword(t.app, "owner@example.com", PASSWORD, ws.name);
    expect(b.res.body.workspaceId).toBe(t.app.workspaceB);
    const oldest = await signInWithPassword(t.app, "owner@example.com");
    expect(oldest.res.body.workspaceId).toBe(t.app.workspaceA);
    const none = await signInWithPassword(t.app, "owner@example.com", PASSWORD, "no-such-workspace");
    expect(none.res.status).toBe(401);
    await t.app.rt.db.prisma.membership.delete({
      where: { workspaceId_userId: { workspaceId: t.app.workspaceB, userId: t.owner.userId } },
    });
  });
});

describe("GET /session", () => {
  it("describes a workspace key: owner, every permission, no user", async () => {
    const res = await t.app.api("GET", "/api/v1/session");
    expect(res.body).toMatchObject({
      authenticated: true,
      workspaceId: t.app.workspaceA,
      userId: null,
      user: null,
      role: "owner",
      baseIds: null,
    });
    expect(res.body.keyId).toMatch(/^key_/);
    expect(res.body.permissions).toEqual([...res.body.permissions].sort());
    expect(res.body.permissions).toContain("members:manage");
  });

  it("describes a user's session: the user, their role's permissions", async () => {
    const viewer = await join(t.app, "viewer", "viewer-session@example.com");
    const res = await getWith(t.app, "/api/v1/session", viewer.cookie);
    expect(res.body).toEqual({
      authenticated: true,
      workspaceId: t.app.workspaceA,
      keyId: null,
      userId: viewer.userId,
      user: { id: viewer.userId, email: "viewer-session@example.com", name: "" },
      role: "viewer",
      permissions: ["keys:own", "rows:read"],
      baseIds: null,
    });
    const own = await getWith(t.app, "/api/v1/session", t.owner.cookie);
    expect(own.body.role).toBe("owner");
    expect(own.body.permissions).toContain("members:manage");
  });

  it("describes a member's key: its scopes within the creator's role, its bases", async () => {
    const editor = await join(t.app, "editor", "editor-key@example.com");
    const key = await createApiKey(t.app.rt.db.prisma, t.app.workspaceA, "editor's key");
    await t.app.rt.db.prisma.apiKey.update({
      where: { id: key.id },
      data: { createdByUserId: editor.userId, scopes: ["rows:read", "rows:write", "schema:write"], baseIds: ["abc"] },
    });
    const res = await t.app.api("GET", "/api/v1/session", { key: key.key });
    expect(res.body).toMatchObject({
      keyId: key.id,
      userId: editor.userId,
      user: { email: "editor-key@example.com" },
      role: "editor",
      permissions: ["rows:read", "rows:write"],
      baseIds: ["abc"],
    });
  });

  it("signed out: says whether single sign-on is offered", async () => {
    expect((await t.app.api("GET", "/api/v1/session", { key: null })).body).toEqual({
      authenticated: false,
      ssoEnabled: false,
    });
    // The flag is rt.config.oidc !== null: on only when the issuer, client id and secret are all set.
    const env = { OIDC_ISSUER: "http://127.0.0.1:9/", OIDC_CLIENT_ID: "c", OIDC_CLIENT_SECRET: "s" };
    expect(loadConfig(env).oidc).toEqual({
      issuer: "http://127.0.0.1:9/",
      clientId: "c",
      clientSecret: "s",
      defaultRole: "viewer",
      workspace: null,
    });
    expect(loadConfig({ ...env, OIDC_CLIENT_SECRET: "" }).oidc).toBeNull();
  });
});

describe("sign-out", () => {
  it("everywhere=true ends every session of the user; without it, only this one", async () => {
    await join(t.app, "editor", "many@example.com");
    const one = await signInWithPassword(t.app, "many@example.com");
    const two = await signInWithPassword(t.app, "many@example.com");
    const three = await signInWithPassword(t.app, "many@example.com");
    const out = await sendWith(t.app, "DELETE", "/api/v1/session", one.cookie);
    expect(out.status).toBe(200);
    expect((await getWith(t.app, "/api/v1/bases", one.cookie)).status).toBe(401);
    expect((await getWith(t.app, "/api/v1/bases", two.cookie)).status).toBe(200);
    const all = await sendWith(t.app, "DELETE", "/api/v1/session?everywhere=true", two.cookie);
    expect(all.status).toBe(200);
    expect(all.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    for (const c of [two.cookie, three.cookie]) expect((await getWith(t.app, "/api/v1/bases", c)).status).toBe(401);
    expect((await getWith(t.app, "/api/v1/bases", t.owner.cookie)).status).toBe(200);
  });
});

describe("password reset", () => {
  it("an owner's link sets a new password once; the user's sessions end", async () => {
    const member = await join(t.app, "editor", "forgetful@example.com");
    const link = await sendWith(t.app, "POST", "/api/v1/password-resets", t.owner.cookie, { userId: member.userId });
    expect(link.status).toBe(201);
    const token = new URL(link.body.url).searchParams.get("token") ?? "";
    expect(link.body.url).toMatch(/^http:\/\/localhost\/reset-password\?token=/);

    const weak = await t.app.api("POST", "/api/v1/password-resets/redeem", {
      key: null,
      body: { token, password: "short" },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.error.code).toBe("weak_password");

    const ok = await t.app.api("POST", "/api/v1/password-resets/redeem", {
      key: null,
      body: { token, password: "a new long password" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ reset: true });
    expect((await getWith(t.app, "/api/v1/bases", member.cookie)).status).toBe(401);
    expect((await signInWithPassword(t.app, "forgetful@example.com")).res.status).toBe(401);
    expect((await signInWithPassword(t.app, "forgetful@example.com", "a new long password")).res.status).toBe(201);

    const again = await t.app.api("POST", "/api/v1/password-resets/redeem", {
      key: null,
      body: { token, password: "yet another password" },
    });
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe("invalid_password_reset");
  });

  it("an expired link, or one for a non-member, is refused; only owners make links", async () => {
    const member = await join(t.app, "admin", "admin-reset@example.com");
    const link = await sendWith(t.app, "POST", "/api/v1/password-resets", t.owner.cookie, { userId: member.userId });
    await t.app.rt.db.prisma.passwordReset.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    const token = new URL(link.body.url).searchParams.get("token") ?? "";
    const expired = await t.app.api("POST", "/api/v1/password-resets/redeem", {
      key: null,
      body: { token, password: "a new long password" },
    });
    expect(expired.body.error.code).toBe("invalid_password_reset");
    const stranger = await sendWith(t.app, "POST", "/api/v1/password-resets", t.owner.cookie, { userId: "usr_nobody" });
    expect(stranger.status).toBe(404);
    expect(stranger.body.error.code).toBe("member_not_found");
    const byAdmin = await sendWith(t.app, "POST", "/api/v1/password-resets", member.cookie, { userId: t.owner.userId });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.error.code).toBe("insufficient_scope");
  });
  it("a redemption is audited in each of the person's workspaces, without the token or the password", async () => {
    const person = await join(t.app, "viewer", "two-places@example.com");
    const { token: inB } = await invite(t.app, { key: t.app.keyB }, "editor");
    expect((await accept(t.app, inB, "two-places@example.com")).status).toBe(201);
    const link = await sendWith(t.app, "POST", "/api/v1/password-resets", t.owner.cookie, { userId: person.userId });
    const token = new URL(link.body.url).searchParams.get("token") ?? "";
    const redeem = (password: string) =>
      t.app.api("POST", "/api/v1/password-resets/redeem", { key: null, body: { token, password } });
    const entries = () =>
      t.app.rt.db.prisma.auditEntry.findMany({
        where: { action: "password_reset.redeem", actorId: person.userId },
        orderBy: { workspaceId: "asc" },
      });

    expect((await redeem("short")).status).toBe(400);
    expect(await entries()).toEqual([]);
    expect((await redeem("another long password")).status).toBe(200);
    const made = await entries();
    expect(made.map((e) => e.workspaceId)).toEqual([t.app.workspaceA, t.app.workspaceB].sort());
    for (const entry of made)
      expect(entry).toMatchObject({
        actorType: "user",
        actorId: person.userId,
        actorName: "two-places@example.com",
        targetType: "user",
        targetId: person.userId,
        baseId: null,
        summary: null,
      });
    const text = JSON.stringify(made);
    expect(text).not.toContain(token);
    expect(text).not.toContain("another long password");
    // A used link is refused, and records nothing more.
    expect((await redeem("yet another password")).status).toBe(401);
    expect(await entries()).toHaveLength(2);
  });
});

describe("first owner", () => {
  it("is made once, by the workspace key; a key session becomes the owner's", async () => {
    const again = await t.app.api("POST", "/api/v1/members/first-owner", {
      body: { email: "second@example.com", password: PASSWORD },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("already_member");

    // Workspace B has no owner member yet: a browser signed in by its key makes one.
    const signIn = await t.app.api("POST", "/api/v1/session", {
      key: null,
      body: { apiKey: t.app.keyB },
      headers: { origin: ORIGIN },
    });
    const keyCookie = cookieOf(signIn);
    const weak = await sendWith(t.app, "POST", "/api/v1/members/first-owner", keyCookie, {
      email: "b-owner@example.com",
      password: "password123",
    });
    expect(weak.body.error.code).toBe("weak_password");
    const made = await sendWith(t.app, "POST", "/api/v1/members/first-owner", keyCookie, {
      email: "B-Owner@example.com",
      name: "Bea",
      password: PASSWORD,
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ email: "b-owner@example.com", name: "Bea", role: "owner" });
    const cookie = cookieOf(made);
    expect(cookie).not.toBe(keyCookie);
    const me = await getWith(t.app, "/api/v1/session", cookie);
    expect(me.body).toMatchObject({ workspaceId: t.app.workspaceB, userId: made.body.userId, keyId: null });
    expect((await getWith(t.app, "/api/v1/session", keyCookie)).body.authenticated).toBe(false);
  });
});
