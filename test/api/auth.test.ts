import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { KEY_CACHE_TTL_MS } from "../../lib/auth/key-cache.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows, baseEndpoints, COMPANIES, type Endpoint } from "./fixtures.ts";
import { EMITS_NOTHING, runScenario, scenarios } from "./scenario.ts";

// Every field of a key's view (docs/api-keys.md); the secret only in the answer that makes it.
const KEY_VIEW_FIELDS =
  "id name prefix createdAt lastUsedAt revokedAt scopes baseIds expiresAt dailyCreditCap spentToday createdBy".split(
    " ",
  );

// Spec §5 as the issue settles it: X-API-Key on every /api/v1 endpoint, 401 missing_api_key or
// invalid_api_key, revocation, and the key API (shown once, stored only as SHA-256).

let app: TestApp;
let f: TestBase;
let rowId: string;

beforeAll(async () => {
  app = await createTestApp();
  f = await createBase(app, COMPANIES);
  [{ id: rowId }] = await addRows(app, f.baseId, [{ Company: "Acme" }]);
});
afterAll(() => app.close());

const accountEndpoints: Endpoint[] = [
  { method: "GET", label: "/api/v1/bases", path: () => "/api/v1/bases" },
  { method: "POST", label: "/api/v1/bases", path: () => "/api/v1/bases", body: { baseName: "X" } },
  { method: "GET", label: "/api/v1/api-keys", path: () => "/api/v1/api-keys" },
  { method: "POST", label: "/api/v1/api-keys", path: () => "/api/v1/api-keys", body: { name: "x" } },
  { method: "DELETE", label: "/api/v1/api-keys/{id}", path: () => "/api/v1/api-keys/key_whatever" },
];

describe("every /api/v1 endpoint requires X-API-Key", () => {
  const endpoints = [
    ...baseEndpoints(
      () => f.baseId,
      () => rowId,
      () => f.col.Website,
    ),
    ...accountEndpoints,
  ];
  for (const { method, label, path, body } of endpoints) {
    scenarios(
      () => app,
      [
        {
          name: `${method} ${label}: no key is 401 missing_api_key`,
          method,
          path,
          body,
          key: null,
          status: 401,
          code: "missing_api_key",
          ...EMITS_NOTHING,
        },
        {
          name: `${method} ${label}: an empty key is 401 missing_api_key`,
          method,
          path,
          body,
          key: "",
          status: 401,
          code: "missing_api_key",
          ...EMITS_NOTHING,
        },
        {
          name: `${method} ${label}: an unknown key is 401 invalid_api_key`,
          method,
          path,
          body,
          key: "cw_thisKeyDoesNotExistAnywhere0000000000",
          status: 401,
          code: "invalid_api_key",
          ...EMITS_NOTHING,
        },
        {
          name: `${method} ${label}: a malformed key is 401 invalid_api_key`,
          method,
          path,
          body,
          key: "Bearer nonsense",
          status: 401,
          code: "invalid_api_key",
          ...EMITS_NOTHING,
        },
      ],
    );
  }

  it("nothing was changed by the refused requests", async () => {
    const rows = await app.api("GET", `/api/v1/bases/${f.baseId}/rows`);
    expect(rows.body.rows).toEqual([
      { id: rowId, cells: { Company: "Acme", Website: "", Employees: "", Summary: "" } },
    ]);
    const s = await app.api("GET", `/api/v1/bases/${f.baseId}/base-structure`);
    expect(s.body.sheet.name).toBe("Companies");
    expect(s.body.sheetColumns).toHaveLength(4);
  });

  it("the health check is public", async () => {
    const res = await app.api("GET", "/api/health", { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, database: true, pendingMigrations: [] });
  });
});

describe("the key API and the key lifecycle", () => {
  it("POST /api/v1/api-keys shows a new cw_ key once; it works; GET lists it without secrets", async () => {
    const created = await runScenario(app, {
      name: "",
      method: "POST",
      path: "/api/v1/api-keys",
      body: { name: "ci" },
      status: 201,
      bodyMatches: { name: "ci", lastUsedAt: null, revokedAt: null },
    });
    const { key, id, prefix } = created.body;
    expect(Object.keys(created.body).sort()).toEqual([...KEY_VIEW_FIELDS, "key"].sort());
    expect(key).toMatch(/^cw_[A-Za-z0-9]{32,}$/);
    expect(id).toMatch(/^key_/);
    expect(key.startsWith(prefix)).toBe(true);
    expect(prefix.length).toBeLessThan(12);
    expect(new Date(created.body.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const use = await app.api("GET", `/api/v1/bases/${f.baseId}/base-structure`, { key });
    expect(use.status).toBe(200);

    const list = await app.api("GET", "/api/v1/api-keys");
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(key);
    const listed = list.body.apiKeys.find((k: any) => k.id === id);
    expect(Object.keys(listed).sort()).toEqual([...KEY_VIEW_FIELDS].sort());
    expect(listed.lastUsedAt).not.toBeNull();
    expect(list.body.apiKeys.length).toBeGreaterThan(0);
    for (const k of list.body.apiKeys) expect(k).not.toHaveProperty("hash");
  });

  it("two created keys differ and are long and random", async () => {
    const a = (await app.api("POST", "/api/v1/api-keys", { body: { name: "a" } })).body.key;
    const b = (await app.api("POST", "/api/v1/api-keys", { body: { name: "b" } })).body.key;
    expect(a).not.toBe(b);
    expect(a.length).toBeGreaterThanOrEqual(35);
  });

  it("keys are stored only as SHA-256 hashes: no column of any table holds the plaintext", async () => {
    const { key, id } = (await app.api("POST", "/api/v1/api-keys", { body: { name: "stored" } })).body;
    const row = await app.rt.db.prisma.apiKey.findUniqueOrThrow({ where: { id } });
    expect(row.hash).toBe(createHash("sha256").update(key).digest("hex"));
    const rawRows = await app.rt.db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM api_keys`);
    const dump = JSON.stringify(rawRows, (_, v) => (typeof v === "bigint" ? String(v) : v));
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(app.keyA);
    expect(dump).not.toContain(app.keyB);
    // The workspaces' tables do not hold it either.
    const ws = await app.rt.db.prisma.$queryRawUnsafe<unknown[]>(`SELECT * FROM workspaces`);
    expect(JSON.stringify(ws, (_, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(key.slice(3));
  });

  it("DELETE revokes: the key then gets 401 invalid_api_key, and stays listed as revoked", async () => {
    const { key, id } = (await app.api("POST", "/api/v1/api-keys", { body: { name: "temp" } })).body;
    expect((await app.api("GET", "/api/v1/bases", { key })).status).toBe(200);
    const del = await runScenario(app, {
      name: "",
      method: "DELETE",
      path: `/api/v1/api-keys/${id}`,
      status: 200,
      bodyMatches: { id, name: "temp" },
    });
    expect(del.body.revokedAt).toEqual(expect.any(String));
    expect(del.text).not.toContain(key);
    for (const path of ["/api/v1/bases", `/api/v1/bases/${f.baseId}/rows`, "/api/v1/api-keys"]) {
      const res = await runScenario(app, {
        name: "",
        method: "GET",
        path,
        key,
        status: 401,
        code: "invalid_api_key",
        ...EMITS_NOTHING,
      });
      expect(res.body.error.code).toBe("invalid_api_key");
    }
    const listed = (await app.api("GET", "/api/v1/api-keys")).body.apiKeys.find((k: any) => k.id === id);
    expect(listed.revokedAt).not.toBeNull();
    // Revoking twice is harmless.
    expect((await app.api("DELETE", `/api/v1/api-keys/${id}`)).status).toBe(200);
  });

  it("a key revoked by another process (the CLI) stops working within the key cache's second", async () => {
    const { key, id } = (await app.api("POST", "/api/v1/api-keys", { body: { name: "elsewhere" } })).body;
    expect((await app.api("GET", "/api/v1/bases", { key })).status).toBe(200);
    // Revoked straight in the database, as `npm run cli -- key revoke` does from its own process.
    await app.rt.db.prisma.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
    await new Promise((r) => setTimeout(r, KEY_CACHE_TTL_MS + 100));
    await runScenario(app, {
      name: "",
      method: "GET",
      path: "/api/v1/bases",
      key,
      status: 401,
      code: "invalid_api_key",
      ...EMITS_NOTHING,
    });
  });

  it("lastUsedAt is recorded on first use", async () => {
    const { key, id } = (await app.api("POST", "/api/v1/api-keys", { body: { name: "fresh" } })).body;
    const before = await app.rt.db.prisma.apiKey.findUniqueOrThrow({ where: { id } });
    expect(before.lastUsedAt).toBeNull();
    await app.api("GET", "/api/v1/bases", { key });
    const after = await app.rt.db.prisma.apiKey.findUniqueOrThrow({ where: { id } });
    expect(after.lastUsedAt).not.toBeNull();
  });

  it("a key can revoke itself", async () => {
    const { key, id } = (await app.api("POST", "/api/v1/api-keys", { body: { name: "self" } })).body;
    expect((await app.api("DELETE", `/api/v1/api-keys/${id}`, { key })).status).toBe(200);
    expect((await app.api("GET", "/api/v1/api-keys", { key })).status).toBe(401);
  });

  scenarios(
    () => app,
    [
      {
        name: "DELETE an unknown key is 404 api_key_not_found",
        method: "DELETE",
        path: "/api/v1/api-keys/key_doesnotexist",
        status: 404,
        code: "api_key_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "POST with an empty name is 400",
        method: "POST",
        path: "/api/v1/api-keys",
        body: { name: "  " },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "POST with an unknown field is 400",
        method: "POST",
        path: "/api/v1/api-keys",
        body: { name: "x", scope: "all" },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "POST without a name uses a default name",
        method: "POST",
        path: "/api/v1/api-keys",
        body: {},
        status: 201,
        bodyMatches: { name: "API key" },
      },
    ],
  );
});

describe("API_KEY seeding", () => {
  it("makes sure a workspace 'default' exists with that key, idempotently", async () => {
    const { seedFromConfig } = await import("../../lib/workspaces.ts");
    const { loadConfig } = await import("../../lib/config.ts");
    const seedKey = "cw_seededKeyForTheDefaultWorkspace0000000001";
    const config = loadConfig({ API_KEY: seedKey });
    await seedFromConfig(app.rt.db.prisma, config);
    await seedFromConfig(app.rt.db.prisma, config);
    const ws = await app.rt.db.prisma.workspace.findMany({ where: { name: "default" } });
    expect(ws).toHaveLength(1);
    const keys = await app.rt.db.prisma.apiKey.findMany({ where: { workspaceId: ws[0].id } });
    expect(keys).toHaveLength(1);
    const res = await app.api("GET", "/api/v1/bases", { key: seedKey });
    expect(res.status).toBe(200);
    expect(res.body.bases).toEqual([]);
  });
});
