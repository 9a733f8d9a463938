import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { recordAudit } from "../../lib/audit/index.ts";
import { hashKey } from "../../lib/auth/api-keys.ts";
import { pruneOnce } from "../../lib/retention.ts";

// Reading the audit log: filters, keyset paging, the scope it needs; and its guarantees: entries
// are never updated, and retention deletes only what is older than the workspace's days.

let app: TestApp;
const DAY = 86_400_000;
const NOW = Date.now();
const ago = (days: number) => new Date(NOW - days * DAY);

async function seed(workspaceId: string, action: string, at: Date, more: Record<string, string> = {}) {
  return recordAudit(
    app.rt.db.prisma,
    { workspaceId, actor: { type: "key", id: more.actorId ?? "key_seed" }, ip: null },
    {
      action,
      targetType: more.targetType ?? null,
      targetId: more.targetId ?? null,
      baseId: more.baseId ?? null,
      summary: null,
    },
    at,
  );
}

async function scopedKey(scopes: string[]) {
  const secret = `cw_scoped${scopes.join("").replace(/[^a-z]/g, "")}${"x".repeat(20)}`;
  await app.rt.db.prisma.apiKey.create({
    data: {
      id: `key_${scopes.join("_").replace(/[^a-z_]/g, "")}`,
      workspaceId: app.workspaceA,
      name: "scoped",
      prefix: "cw_scop",
      hash: hashKey(secret),
      scopes,
    },
  });
  return secret;
}

const list = async (query = "", key?: string) => app.api("GET", `/api/v1/audit${query}`, key ? { key } : {});

beforeAll(async () => {
  app = await createTestApp();
  // Oldest first: a column's life on base b1 by key_one, a key made by key_two, and B's own entry.
  await seed(app.workspaceA, "column.create", ago(10), {
    actorId: "key_one",
    targetType: "column",
    targetId: "scol_1",
    baseId: "b1",
  });
  await seed(app.workspaceA, "column.update", ago(9), {
    actorId: "key_one",
    targetType: "column",
    targetId: "scol_1",
    baseId: "b1",
  });
  await seed(app.workspaceA, "key.create", ago(8), { actorId: "key_two", targetType: "key", targetId: "key_x" });
  await seed(app.workspaceA, "column.delete", ago(7), {
    actorId: "key_one",
    targetType: "column",
    targetId: "scol_1",
    baseId: "b1",
  });
  await seed(app.workspaceA, "base.delete", ago(6), {
    actorId: "key_two",
    targetType: "base",
    targetId: "b1",
    baseId: "b1",
  });
  await seed(app.workspaceB, "column.create", ago(5), { actorId: "key_b" });
});
afterAll(() => app.close());

const actions = (res: { body: { entries: { action: string }[] } }) => res.body.entries.map((e) => e.action);

describe("filters", () => {
  it("lists the workspace's own entries, newest first", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(actions(res)).toEqual(["base.delete", "column.delete", "key.create", "column.update", "column.create"]);
    expect(res.body.entries[0]).toEqual({
      id: expect.stringMatching(/^aud_/),
      at: ago(6).toISOString(),
      actor: { type: "key", id: "key_two", name: "" },
      action: "base.delete",
      target: { type: "base", id: "b1" },
      baseId: "b1",
      summary: null,
      ip: null,
    });
  });

  it.each([
    ["?action=column.", ["column.delete", "column.update", "column.create"]],
    ["?action=column.update", ["column.update"]],
    ["?action=column", []],
    ["?actorId=key_two", ["base.delete", "key.create"]],
    ["?targetId=scol_1", ["column.delete", "column.update", "column.create"]],
    ["?baseId=b1&action=base.", ["base.delete"]],
    [`?since=${ago(9).toISOString()}&until=${ago(7).toISOString()}`, ["key.create", "column.update"]],
    [`?since=${ago(1).toISOString().slice(0, 10)}`, []],
  ])("%s", async (query, expected) => {
    const res = await list(query);
    expect(res.status, res.text).toBe(200);
    expect(actions(res)).toEqual(expected);
  });

  it.each([
    ["?limit=0", "invalid_query"],
    ["?limit=501", "invalid_query"],
    ["?since=yesterday", "invalid_query"],
    ["?until=2026-13-45T00:00:00Z", "invalid_query"],
    ["?action=DROP%20TABLE", "invalid_query"],
    ["?actorId=a%20b", "invalid_query"],
    ["?cursor=not-a-cursor", "invalid_cursor"],
    [`?cursor=${Buffer.from(JSON.stringify(["x", 1])).toString("base64url")}`, "invalid_cursor"],
  ])("refuses %s with 400 %s", async (query, code) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
  });
});

describe("paging", () => {
  it("walks every entry once, in order, by cursor; entries in one millisecond keep their order", async () => {
    const same = new Date(NOW - 3 * DAY);
    for (let i = 0; i < 4; i++)
      await seed(app.workspaceA, `view.create`, same, { targetType: "view", targetId: `view_${i}` });
    const seen: string[] = [];
    let cursor: string | null = "";
    let pages = 0;
    while (cursor !== null) {
      const res = await list(`?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.entries.map((e: { target: { id: string } }) => e.target.id));
      cursor = res.body.nextCursor;
      pages++;
    }
    expect(pages).toBe(5);
    expect(seen).toEqual(["view_3", "view_2", "view_1", "view_0", "b1", "scol_1", "key_x", "scol_1", "scol_1"]);
  });
});

describe("who may read it", () => {
  it("needs audit:read: a key with only rows:read gets 403 insufficient_scope", async () => {
    const reader = await scopedKey(["rows:read"]);
    const res = await list("", reader);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "insufficient_scope", details: { scope: "audit:read" } });
    const auditor = await scopedKey(["audit:read"]);
    expect((await list("", auditor)).status).toBe(200);
  });

  it("offers no way to change or delete an entry", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"])
      expect((await app.api(method, "/api/v1/audit")).status).toBe(405);
  });
});

describe("append-only", () => {
  it("refuses an UPDATE of an entry in the database itself", async () => {
    await expect(app.rt.db.prisma.$executeRawUnsafe(`UPDATE audit_entries SET action = 'forged'`)).rejects.toThrow(
      /append-only/,
    );
    expect(await app.rt.db.prisma.auditEntry.count({ where: { action: "forged" } })).toBe(0);
  });
});

describe("retention", () => {
  it("deletes entries older than each workspace's days, and keeps all of a workspace that keeps them forever", async () => {
    const ws = app.rt.db.prisma.workspace;
    await ws.update({ where: { id: app.workspaceA }, data: { auditRetentionDays: 8 } });
    await ws.update({ where: { id: app.workspaceB }, data: { auditRetentionDays: null } });
    const old = await seed(app.workspaceB, "base.create", ago(4000));
    const counts = await pruneOnce(app.rt, new Date(NOW));
    // A: column.create (10 days) and column.update (9) go; key.create (8 days ago to the ms) stays.
    expect(counts.auditEntries).toBe(2);
    expect(actions(await list())).toEqual([
      ...Array(4).fill("view.create"),
      "base.delete",
      "column.delete",
      "key.create",
    ]);
    expect(await app.rt.db.prisma.auditEntry.findUnique({ where: { id: old } })).not.toBeNull();
    expect((await pruneOnce(app.rt, new Date(NOW))).auditEntries).toBe(0);
  });
});
