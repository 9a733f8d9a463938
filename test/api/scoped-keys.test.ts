import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { memberWithSession, type TestMember } from "../support/principals.ts";
import { KEY_SCOPES } from "../../lib/auth/permissions.ts";

// Scoped keys: a key is never more than its creator, in each dimension (scopes, bases, expiry,
// daily cap), and a caller lists and revokes its own keys unless it holds keys:manage.

let app: TestApp;
let baseA: string;
let baseB: string;
let editor: TestMember;
let admin: TestMember;

beforeAll(async () => {
  app = await createTestApp();
  baseA = (await createBase(app, { columns: [{ name: "Name", isPrimary: true }] })).baseId;
  baseB = (await createBase(app, { columns: [{ name: "Name", isPrimary: true }], name: "Other" })).baseId;
  editor = await memberWithSession(app.rt, app.workspaceA, "editor");
  admin = await memberWithSession(app.rt, app.workspaceA, "admin");
});
afterAll(() => app.close());

const mint = (body: unknown, as: { key?: string; headers?: Record<string, string> } = {}) =>
  app.api("POST", "/api/v1/api-keys", {
    key: as.headers ? null : (as.key ?? app.keyA),
    headers: as.headers,
    body,
  });

function expectRefused(res: { status: number; body: any }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(res.body.error.code).toBe("cannot_grant");
  expect(res.body.error.details.field).toBe(field);
}

describe("creating scoped keys", () => {
  it("a workspace key mints a key with what it asks for, and the view shows it", async () => {
    const res = await mint({ name: "reader", scopes: ["rows:read"], baseIds: [baseA], dailyCreditCap: 50 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "reader",
      scopes: ["rows:read"],
      baseIds: [baseA],
      dailyCreditCap: 50,
      spentToday: 0,
      expiresAt: null,
      createdBy: { type: "key", name: "first key" },
    });
    expect(res.body.key).toMatch(/^cw_/);
    // It reads its base, is refused the other, and cannot write.
    expect((await app.api("GET", `/api/v1/bases/${baseA}/rows`, { key: res.body.key })).status).toBe(200);
    const other = await app.api("GET", `/api/v1/bases/${baseB}/rows`, { key: res.body.key });
    expect(other.body.error.code).toBe("base_not_in_scope");
    const write = await app.api("POST", `/api/v1/bases/${baseA}/add-rows`, {
      key: res.body.key,
      body: { rows: [{ cells: { Name: "x" } }] },
    });
    expect(write.status).toBe(403);
    expect(write.body.error).toMatchObject({ code: "insufficient_scope", details: { scope: "rows:write" } });
  });

  it("defaults: every scope the creator holds, every base, no expiry, no cap", async () => {
    const res = await mint({});
    expect(res.body).toMatchObject({ scopes: [...KEY_SCOPES].sort(), baseIds: null, dailyCreditCap: null });
    const mine = await mint({ name: "mine" }, { headers: editor.headers });
    expect(mine.status).toBe(201);
    expect(mine.body.scopes).toEqual(["rows:read", "rows:write", "runs:write"]);
    expect(mine.body.createdBy).toEqual({ type: "user", id: editor.userId, name: editor.email });
  });

  it("an editor's session cannot mint schema:write", async () => {
    expectRefused(await mint({ scopes: ["rows:read", "schema:write"] }, { headers: editor.headers }), "scopes");
  });

  it("a key with keys:manage cannot mint a wider key", async () => {
    const manager = await mint({ scopes: ["keys:manage", "rows:read"], baseIds: [baseA], dailyCreditCap: 10 });
    const key = manager.body.key;
    expectRefused(await mint({ scopes: ["rows:write"] }, { key }), "scopes");
    expectRefused(await mint({ baseIds: [baseB] }, { key }), "baseIds");
    expectRefused(await mint({ baseIds: [] }, { key }), "baseIds");
    expectRefused(await mint({ dailyCreditCap: 11 }, { key }), "dailyCreditCap");
    const narrow = await mint({ scopes: ["rows:read"] }, { key });
    expect(narrow.status).toBe(201);
    // What is not asked for is inherited: the bases and the cap.
    expect(narrow.body).toMatchObject({ scopes: ["rows:read"], baseIds: [baseA], dailyCreditCap: 10 });
    expect(narrow.body.createdBy).toMatchObject({ type: "key", id: manager.body.id });
  });

  it("expiry: never after the calling key's, always in the future", async () => {
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const parent = await mint({ expiresAt: soon });
    expect(parent.body.expiresAt).toBe(soon);
    const later = new Date(Date.now() + 7_200_000).toISOString();
    expectRefused(await mint({ expiresAt: later }, { key: parent.body.key }), "expiresAt");
    const child = await mint({}, { key: parent.body.key });
    expect(child.body.expiresAt).toBe(soon);
    const past = await mint({ expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.error.code).toBe("validation_failed");
  });

  it("bases must be bases of this workspace", async () => {
    const res = await mint({ baseIds: ["nope1234"] });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("base_not_found");
    const foreign = await createBase(app, { columns: [{ name: "Name", isPrimary: true }], key: app.keyB });
    expect((await mint({ baseIds: [foreign.baseId] })).body.error.code).toBe("base_not_found");
  });

  it("an unknown scope, or none, is a 400", async () => {
    for (const scopes of [["members:manage"], ["rows:read", "everything"], []]) {
      const res = await mint({ scopes });
      expect(res.status, JSON.stringify(scopes)).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
  });
});

describe("listing and revoking", () => {
  it("without keys:manage a member sees and revokes only their own keys; with it, all", async () => {
    const own = await mint({ name: "editor's" }, { headers: editor.headers });
    const other = await mint({ name: "workspace's" });
    const listed = await app.api("GET", "/api/v1/api-keys", { key: null, headers: editor.headers });
    expect(listed.status).toBe(200);
    const ids = listed.body.apiKeys.map((k: { id: string }) => k.id);
    expect(ids).toContain(own.body.id);
    expect(ids).not.toContain(other.body.id);
    expect(listed.body.apiKeys.every((k: any) => k.createdBy.id === editor.userId)).toBe(true);

    const refused = await app.api("DELETE", `/api/v1/api-keys/${other.body.id}`, {
      key: null,
      headers: editor.headers,
    });
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe("api_key_not_found");
    const revoked = await app.api("DELETE", `/api/v1/api-keys/${own.body.id}`, { key: null, headers: editor.headers });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();

    const all = await app.api("GET", "/api/v1/api-keys", { key: null, headers: admin.headers });
    const allIds = all.body.apiKeys.map((k: { id: string }) => k.id);
    expect(allIds).toEqual(expect.arrayContaining([own.body.id, other.body.id]));
    const byAdmin = await app.api("DELETE", `/api/v1/api-keys/${other.body.id}`, { key: null, headers: admin.headers });
    expect(byAdmin.status).toBe(200);
  });

  it("a key without keys:manage may not reach the key endpoints", async () => {
    const reader = await mint({ scopes: ["rows:read"] });
    const res = await app.api("GET", "/api/v1/api-keys", { key: reader.body.key });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "insufficient_scope", details: { scope: "keys:manage" } });
  });

  it("another workspace's key is not found", async () => {
    const mine = await mint({});
    const res = await app.api("DELETE", `/api/v1/api-keys/${mine.body.id}`, { key: app.keyB });
    expect(res.body.error.code).toBe("api_key_not_found");
  });
});

describe("changing a key", () => {
  it("renames and sets the cap; a capped caller cannot lift or raise a cap past its own", async () => {
    const capped = await mint({ scopes: ["keys:manage"], dailyCreditCap: 5 });
    const child = await mint({ name: "child" }, { key: capped.body.key });
    const patch = (body: unknown, key = capped.body.key) =>
      app.api("PATCH", `/api/v1/api-keys/${child.body.id}`, { key, body });
    const renamed = await patch({ name: "renamed", dailyCreditCap: 3 });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "renamed", dailyCreditCap: 3 });
    expectRefused(await patch({ dailyCreditCap: 6 }), "dailyCreditCap");
    expectRefused(await patch({ dailyCreditCap: null }), "dailyCreditCap");
    const lifted = await patch({ dailyCreditCap: null }, app.keyA);
    expect(lifted.body.dailyCreditCap).toBeNull();
  });
});

describe("keys that stop", () => {
  it("an expired key answers 401 api_key_expired", async () => {
    const key = await mint({ scopes: ["rows:read"] });
    expect((await app.api("GET", `/api/v1/bases/${baseA}/rows`, { key: key.body.key })).status).toBe(200);
    await app.rt.db.prisma.apiKey.update({
      where: { id: key.body.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    // The key cache remembers a valid key for a second at most.
    await new Promise((r) => setTimeout(r, 1_100));
    const res = await app.api("GET", `/api/v1/bases/${baseA}/rows`, { key: key.body.key });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("api_key_expired");
  });

  it("a departed creator's keys stop, down the whole chain", async () => {
    const leaver = await memberWithSession(app.rt, app.workspaceA, "admin");
    const first = await mint({ scopes: ["rows:read", "keys:manage"] }, { headers: leaver.headers });
    const second = await mint({ scopes: ["rows:read"] }, { key: first.body.key });
    expect(second.body.createdBy).toMatchObject({ type: "key", id: first.body.id });
    for (const k of [first, second])
      expect((await app.api("GET", `/api/v1/bases/${baseA}/rows`, { key: k.body.key })).status).toBe(200);
    await app.rt.db.prisma.membership.delete({
      where: { workspaceId_userId: { workspaceId: app.workspaceA, userId: leaver.userId } },
    });
    await new Promise((r) => setTimeout(r, 1_100));
    for (const k of [first, second]) {
      const res = await app.api("GET", `/api/v1/bases/${baseA}/rows`, { key: k.body.key });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("invalid_api_key");
    }
  });
});
