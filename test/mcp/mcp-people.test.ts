import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createTestApp, type TestApp } from "../support/app.ts";
import { addMember, makeKey } from "../support/principals.ts";
import { call, callError, connect } from "./helpers.ts";

// The people and audit tools over MCP: members, roles, invitations and the audit log, through
// the same endpoints as REST. Their answers, their refusals (a key without the scope, the last
// owner, another workspace's member) and their audit entries are the REST call's.

let app: TestApp;
let owner: Client;
let other: Client;
const clients: Client[] = [];

async function client(scopes: string[]): Promise<{ c: Client; key: string }> {
  const key = await makeKey(app.rt, app.workspaceA, { scopes });
  const c = await connect(key);
  clients.push(c);
  return { c, key };
}

beforeAll(async () => {
  app = await createTestApp();
  // The workspace key acts as an owner: it may manage members and read the audit log.
  owner = await connect(app.keyA);
  other = await connect(app.keyB);
  clients.push(owner, other);
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await app.close();
});

/** The people tools, written here rather than read from the tool table. */
const PEOPLE = [
  "list_members",
  "set_member_role",
  "remove_member",
  "create_invitation",
  "list_invitations",
  "revoke_invitation",
  "read_audit_log",
];

describe("tools/list", () => {
  it("shows the workspace key every people tool", async () => {
    const names = (await owner.listTools()).tools.map((t) => t.name);
    expect(names.filter((n) => PEOPLE.includes(n)).sort()).toEqual([...PEOPLE].sort());
  });
});

describe("members", () => {
  it("lists members, changes a role and removes a member, as REST does", async () => {
    const userId = await addMember(app.rt, app.workspaceA, "viewer");
    const listed = await call(owner, "list_members");
    expect(listed.result).toEqual((await app.api("GET", "/api/v1/members")).body);
    expect(listed.text).toContain(userId);

    const changed = await call(owner, "set_member_role", { userId, role: "editor" });
    expect(changed.result).toMatchObject({ userId, role: "editor" });
    const membership = await app.rt.db.prisma.membership.findFirstOrThrow({ where: { userId } });
    expect(membership.role).toBe("editor");

    const removed = await call(owner, "remove_member", { userId });
    expect(removed.result).toEqual({ removed: true, userId });
    const again = await callError(owner, "remove_member", { userId });
    const rest = await app.api("DELETE", `/api/v1/members/${userId}`);
    expect([again.code, rest.body.error.code]).toEqual(["member_not_found", "member_not_found"]);
  });

  it("keeps the last owner, and never reaches another workspace's member", async () => {
    const ownerId = await addMember(app.rt, app.workspaceA, "owner");
    const demote = await callError(owner, "set_member_role", { userId: ownerId, role: "viewer" });
    const rest = await app.api("PATCH", `/api/v1/members/${ownerId}`, { body: { role: "viewer" } });
    expect([demote.code, rest.status, rest.body.error.code]).toEqual(["last_owner", 409, "last_owner"]);
    expect((await callError(owner, "remove_member", { userId: ownerId })).code).toBe("last_owner");

    const elsewhere = await callError(other, "set_member_role", { userId: ownerId, role: "viewer" });
    expect(elsewhere.code).toBe("member_not_found");
    const theirs = await call(other, "list_members");
    expect(theirs.result.members.map((m: { userId: string }) => m.userId)).not.toContain(ownerId);
  });
});

describe("invitations", () => {
  it("creates, lists and revokes an invitation; the list never holds the link", async () => {
    const made = await call(owner, "create_invitation", { role: "editor", email: "Guest@Example.com" });
    expect(made.result).toMatchObject({ role: "editor", email: "guest@example.com" });
    expect(made.result.url).toMatch(/\/invite\?token=/);
    const listed = await call(owner, "list_invitations");
    expect(listed.result).toEqual((await app.api("GET", "/api/v1/invitations")).body);
    expect(listed.result.invitations[0]).toMatchObject({ id: made.result.id, usedAt: null, revokedAt: null });
    expect(JSON.stringify(listed.result)).not.toContain(made.result.url);

    const revoked = await call(owner, "revoke_invitation", { invitationId: made.result.id });
    expect(revoked.result.revokedAt).not.toBeNull();
    const token = new URL(made.result.url).searchParams.get("token");
    const accept = await app.api("POST", "/api/v1/invitations/accept", {
      key: null,
      body: { token, email: "guest@example.com", password: "correct horse battery" },
      headers: { origin: "http://localhost" },
    });
    expect([accept.status, accept.body.error.code]).toEqual([401, "invalid_invitation"]);
    const unknown = await callError(owner, "revoke_invitation", { invitationId: "inv_none" });
    expect(unknown.code).toBe("invitation_not_found");
  });
});

describe("the audit log", () => {
  it("reads entries with the REST filters, page by page, and the tools' own changes are in it", async () => {
    const userId = await addMember(app.rt, app.workspaceA, "viewer");
    await call(owner, "set_member_role", { userId, role: "admin" });
    const key = await app.rt.db.prisma.apiKey.findFirstOrThrow({ where: { workspaceId: app.workspaceA } });

    const byTarget = await call(owner, "read_audit_log", { targetId: userId });
    expect(byTarget.result.entries).toHaveLength(1);
    expect(byTarget.result.entries[0]).toMatchObject({
      action: "member.role_change",
      actor: { type: "key", id: key.id },
      target: { type: "user", id: userId },
      summary: { before: { role: "viewer" }, after: { role: "admin" } },
    });

    const query = { action: "member.", actorId: key.id, since: "2020-01-01T00:00:00Z" };
    const rest = await app.api("GET", `/api/v1/audit?${new URLSearchParams(query)}`);
    const first = await call(owner, "read_audit_log", { ...query, limit: 2 });
    expect(first.result.entries).toEqual(rest.body.entries.slice(0, 2));
    expect(first.result.nextCursor).toEqual(expect.any(String));
    const second = await call(owner, "read_audit_log", { ...query, limit: 2, cursor: first.result.nextCursor });
    expect(second.result.entries).toEqual(rest.body.entries.slice(2, 4));
    expect(rest.body.entries.every((e: { action: string }) => e.action.startsWith("member."))).toBe(true);

    expect((await callError(owner, "read_audit_log", { limit: 101 })).code).toBe("validation_failed");
    expect((await callError(owner, "read_audit_log", { action: "Not an action" })).code).toBe("invalid_query");
    expect((await callError(owner, "read_audit_log", { cursor: "bogus" })).code).toBe("invalid_cursor");
  });
});

describe("scopes", () => {
  it("a key without members:manage or audit:read gets REST's insufficient_scope, and changes nothing", async () => {
    const userId = await addMember(app.rt, app.workspaceA, "viewer");
    const { c, key } = await client(["rows:read", "rows:write"]);
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names).toContain("list_members");
    for (const hidden of ["set_member_role", "remove_member", "create_invitation", "list_invitations"])
      expect(names).not.toContain(hidden);
    expect(names).not.toContain("read_audit_log");

    const attempts: [string, Record<string, unknown>, string, string, unknown?][] = [
      ["set_member_role", { userId, role: "owner" }, "PATCH", `/api/v1/members/${userId}`, { role: "owner" }],
      ["remove_member", { userId }, "DELETE", `/api/v1/members/${userId}`],
      ["create_invitation", { role: "owner" }, "POST", "/api/v1/invitations", { role: "owner" }],
      ["list_invitations", {}, "GET", "/api/v1/invitations"],
      ["revoke_invitation", { invitationId: "inv_none" }, "DELETE", "/api/v1/invitations/inv_none"],
      ["read_audit_log", {}, "GET", "/api/v1/audit"],
    ];
    for (const [tool, args, method, path, body] of attempts) {
      const mcp = await callError(c, tool, args);
      const rest = await app.api(method, path, { key, body });
      expect([mcp.code, mcp.details], tool).toEqual([rest.body.error.code, rest.body.error.details]);
      expect(mcp.code, tool).toBe("insufficient_scope");
    }
    const membership = await app.rt.db.prisma.membership.findFirstOrThrow({ where: { userId } });
    expect(membership.role).toBe("viewer");
    expect(await app.rt.db.prisma.invitation.count({ where: { role: "owner" } })).toBe(0);

    const reader = await client(["rows:read", "audit:read"]);
    expect((await call(reader.c, "read_audit_log", { limit: 1 })).result.entries).toHaveLength(1);
  });
});
