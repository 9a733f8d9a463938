import { describe, expect, it } from "vitest";
import {
  accept,
  getWith,
  invite,
  join,
  makeFirstOwner,
  PASSWORD,
  sendWith,
  signInWithPassword,
  useAppWithOwner,
} from "../support/people.ts";
import { createApiKey } from "../../lib/auth/api-keys.ts";

// Invitations make members; owners change roles and remove members. The last owner stays, and a
// removed member's sessions and keys stop at once.

const t = useAppWithOwner();

describe("invitations", () => {
  it("a new email accepts: an account, a membership with the role, a session", async () => {
    const made = await invite(t.app, { cookie: t.owner.cookie }, "editor");
    expect(made.body).toMatchObject({ role: "editor", email: null });
    expect(made.body.url).toMatch(/^http:\/\/localhost\/invite\?token=[A-Za-z0-9_-]{40,}$/);
    const res = await accept(t.app, made.token, "New@Example.com", PASSWORD, "Newt");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ workspaceId: t.app.workspaceA, role: "editor" });
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
    expect((await getWith(t.app, "/api/v1/session", cookie)).body.user).toEqual({
      id: res.body.userId,
      email: "new@example.com",
      name: "Newt",
    });
    const members = await getWith(t.app, "/api/v1/members", cookie);
    expect(members.body.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ["owner@example.com", "owner"],
      ["new@example.com", "editor"],
    ]);
    const list = await getWith(t.app, "/api/v1/invitations", t.owner.cookie);
    const row = list.body.invitations.find((i: { id: string }) => i.id === made.id);
    expect(row.usedAt).not.toBeNull();
    expect(JSON.stringify(list.body)).not.toContain(made.token);
  });

  it("is used once", async () => {
    const { token } = await invite(t.app, { cookie: t.owner.cookie }, "viewer");
    expect((await accept(t.app, token, "once@example.com")).status).toBe(201);
    const again = await accept(t.app, token, "twice@example.com");
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe("invalid_invitation");
  });

  it("an existing user joins with their own password; a wrong one is refused", async () => {
    // A member of workspace B is invited to A.
    const b = await makeFirstOwner(t.app, "b-person@example.com", t.app.keyB);
    const { token } = await invite(t.app, { cookie: t.owner.cookie }, "admin");
    const wrong = await accept(t.app, token, "b-person@example.com", "not their password");
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe("invalid_credentials");
    const ok = await accept(t.app, token, "b-person@example.com", PASSWORD);
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ userId: b.userId, role: "admin", workspaceId: t.app.workspaceA });
    const { token: second } = await invite(t.app, { cookie: t.owner.cookie }, "viewer");
    const member = await accept(t.app, second, "b-person@example.com", PASSWORD);
    expect(member.status).toBe(409);
    expect(member.body.error.code).toBe("already_member");
  });

  it("refuses an expired, a revoked, or another email's invitation, and a weak password", async () => {
    const expired = await invite(t.app, { cookie: t.owner.cookie }, "viewer");
    await t.app.rt.db.prisma.invitation.update({
      where: { id: expired.id },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    expect((await accept(t.app, expired.token, "late@example.com")).body.error.code).toBe("invalid_invitation");

    const revoked = await invite(t.app, { cookie: t.owner.cookie }, "viewer");
    const del = await sendWith(t.app, "DELETE", `/api/v1/invitations/${revoked.id}`, t.owner.cookie);
    expect(del.status).toBe(200);
    expect(del.body.revokedAt).not.toBeNull();
    expect((await accept(t.app, revoked.token, "revoked@example.com")).body.error.code).toBe("invalid_invitation");
    expect((await sendWith(t.app, "DELETE", "/api/v1/invitations/inv_nope", t.owner.cookie)).body.error.code).toBe(
      "invitation_not_found",
    );

    const bound = await invite(t.app, { cookie: t.owner.cookie }, "viewer", "Bound@Example.com");
    expect(bound.body.email).toBe("bound@example.com");
    const other = await accept(t.app, bound.token, "other@example.com");
    expect(other.status).toBe(401);
    expect(other.body.error.code).toBe("invalid_invitation");
    const weak = await accept(t.app, bound.token, "bound@example.com", "short");
    expect(weak.status).toBe(400);
    expect(weak.body.error.code).toBe("weak_password");
    expect((await accept(t.app, bound.token, "BOUND@example.com")).status).toBe(201);

    expect((await accept(t.app, "garbage", "x@example.com")).body.error.code).toBe("invalid_invitation");
  });

  it("only owners invite; the workspace's other members may list members", async () => {
    const admin = await join(t.app, "admin", "admin-invites@example.com");
    const res = await sendWith(t.app, "POST", "/api/v1/invitations", admin.cookie, { role: "viewer" });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "insufficient_scope", details: { scope: "members:manage" } });
    expect((await getWith(t.app, "/api/v1/members", admin.cookie)).status).toBe(200);
    expect((await getWith(t.app, "/api/v1/invitations", admin.cookie)).status).toBe(403);
    const bad = await sendWith(t.app, "POST", "/api/v1/invitations", t.owner.cookie, { role: "god" });
    expect(bad.status).toBe(400);
  });
});

describe("roles", () => {
  it("owners change roles; the last owner cannot be demoted or removed", async () => {
    const m = await join(t.app, "viewer", "promote@example.com");
    const up = await sendWith(t.app, "PATCH", `/api/v1/members/${m.userId}`, t.owner.cookie, { role: "owner" });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ userId: m.userId, role: "owner" });
    expect((await getWith(t.app, "/api/v1/session", m.cookie)).body.role).toBe("owner");

    const down = await sendWith(t.app, "PATCH", `/api/v1/members/${m.userId}`, t.owner.cookie, { role: "editor" });
    expect(down.body.role).toBe("editor");
    const self = await sendWith(t.app, "PATCH", `/api/v1/members/${t.owner.userId}`, t.owner.cookie, { role: "admin" });
    expect(self.status).toBe(409);
    expect(self.body.error.code).toBe("last_owner");
    const gone = await sendWith(t.app, "DELETE", `/api/v1/members/${t.owner.userId}`, t.owner.cookie);
    expect(gone.status).toBe(409);
    expect(gone.body.error.code).toBe("last_owner");
    const editor = await sendWith(t.app, "PATCH", `/api/v1/members/${t.owner.userId}`, m.cookie, { role: "viewer" });
    expect(editor.status).toBe(403);
    const missing = await sendWith(t.app, "PATCH", "/api/v1/members/usr_nobody", t.owner.cookie, { role: "viewer" });
    expect(missing.body.error.code).toBe("member_not_found");
  });

  it("another workspace's member is not found here", async () => {
    const { token } = await invite(t.app, { key: t.app.keyB }, "viewer");
    const bUser = (await accept(t.app, token, "only-in-b@example.com")).body.userId;
    const res = await sendWith(t.app, "PATCH", `/api/v1/members/${bUser}`, t.owner.cookie, { role: "viewer" });
    expect(res.status).toBe(404);
  });
});

describe("removal", () => {
  it("ends the member's sessions and stops the keys they made, at once", async () => {
    const m = await join(t.app, "editor", "leaver@example.com");
    const second = await signInWithPassword(t.app, "leaver@example.com");
    const key = await createApiKey(t.app.rt.db.prisma, t.app.workspaceA, "leaver's key");
    await t.app.rt.db.prisma.apiKey.update({ where: { id: key.id }, data: { createdByUserId: m.userId } });
    expect((await t.app.api("GET", "/api/v1/bases", { key: key.key })).status).toBe(200);

    const res = await sendWith(t.app, "DELETE", `/api/v1/members/${m.userId}`, t.owner.cookie);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ removed: true, userId: m.userId });
    for (const c of [m.cookie, second.cookie]) expect((await getWith(t.app, "/api/v1/bases", c)).status).toBe(401);
    const byKey = await t.app.api("GET", "/api/v1/bases", { key: key.key });
    expect(byKey.status).toBe(401);
    expect(byKey.body.error.code).toBe("invalid_api_key");
    expect((await signInWithPassword(t.app, "leaver@example.com")).res.status).toBe(401);
    expect(
      (await getWith(t.app, "/api/v1/members", t.owner.cookie)).body.members.map((x: { userId: string }) => x.userId),
    ).not.toContain(m.userId);
    const again = await sendWith(t.app, "DELETE", `/api/v1/members/${m.userId}`, t.owner.cookie);
    expect(again.body.error.code).toBe("member_not_found");
  });
});
