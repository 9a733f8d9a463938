import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { makeKey, memberWithSession } from "../support/principals.ts";
import { createSecret, readSecretValues } from "../../lib/secrets/index.ts";
import { QUOTAS } from "../../lib/domain/limits.ts";

// Workspace secrets over the API: create, list, replace, delete, their refusals, isolation,
// scopes and audit entries; and readSecretValues, the face HTTP columns use to send them.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const VALUE = "sk_live_0123456789abcdef";

describe("POST, GET and DELETE /api/v1/secrets", () => {
  it("creates, lists and deletes, never answering the value", async () => {
    const created = await app.api("POST", "/api/v1/secrets", { body: { name: "CLEARBIT_KEY", value: VALUE } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ name: "CLEARBIT_KEY", createdAt: expect.any(String), last4: "cdef" });
    expect(created.text).not.toContain(VALUE);

    const listed = await app.api("GET", "/api/v1/secrets");
    expect(listed.status).toBe(200);
    expect(listed.body.secrets).toEqual([created.body]);

    const deleted = await app.api("DELETE", "/api/v1/secrets/CLEARBIT_KEY");
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ name: "CLEARBIT_KEY", deleted: true });
    expect((await app.api("GET", "/api/v1/secrets")).body.secrets).toEqual([]);
    const again = await app.api("DELETE", "/api/v1/secrets/CLEARBIT_KEY");
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe("secret_not_found");
  });

  it("refuses a name in use with 409 duplicate_secret, and replaces it when asked", async () => {
    await app.api("POST", "/api/v1/secrets", { body: { name: "ROTATED", value: "first-value-1111" } });
    const dup = await app.api("POST", "/api/v1/secrets", { body: { name: "ROTATED", value: "second-value-2222" } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe("duplicate_secret");
    expect(dup.text).not.toContain("second-value");
    let values = await readSecretValues(app.rt.db.prisma, app.rt.secrets, app.workspaceA, ["ROTATED"]);
    expect(values.get("ROTATED")).toBe("first-value-1111");

    const replaced = await app.api("POST", "/api/v1/secrets", {
      body: { name: "ROTATED", value: "second-value-2222", replace: true },
    });
    expect(replaced.status).toBe(201);
    expect(replaced.body.last4).toBe("2222");
    values = await readSecretValues(app.rt.db.prisma, app.rt.secrets, app.workspaceA, ["ROTATED"]);
    expect(values.get("ROTATED")).toBe("second-value-2222");
    expect((await app.api("GET", "/api/v1/secrets")).body.secrets.map((s: any) => s.name)).toEqual(["ROTATED"]);
    await app.api("DELETE", "/api/v1/secrets/ROTATED");
  });

  it("refuses bad names and values with 400 and stores nothing", async () => {
    const cases = [
      { name: "lower_case", value: "v" },
      { name: "9LIVES", value: "v" },
      { name: "OK", value: "" },
      { name: "OK", value: "x".repeat(8 * 1024 + 1) },
      { name: "OK", value: 42 },
      { name: "OK", value: "v", extra: true },
    ];
    for (const body of cases) {
      const res = await app.api("POST", "/api/v1/secrets", { body });
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
    const badName = await app.api("POST", "/api/v1/secrets", { body: { name: "lower", value: "v" } });
    expect(badName.body.error.details.issues[0].message).toMatch(/upper-case letter/);
    expect((await app.api("DELETE", "/api/v1/secrets/not-a-name")).status).toBe(404);
    expect((await app.api("GET", "/api/v1/secrets")).body.secrets).toEqual([]);
  });

  it("keeps workspaces apart", async () => {
    await app.api("POST", "/api/v1/secrets", { body: { name: "SHARED_NAME", value: "value-of-a-1234" } });
    const b = await app.api("POST", "/api/v1/secrets", {
      key: app.keyB,
      body: { name: "SHARED_NAME", value: "value-of-b-5678" },
    });
    expect(b.status).toBe(201);
    expect((await app.api("GET", "/api/v1/secrets", { key: app.keyB })).body.secrets).toEqual([b.body]);
    await app.api("DELETE", "/api/v1/secrets/SHARED_NAME", { key: app.keyB });
    expect((await app.api("DELETE", "/api/v1/secrets/SHARED_NAME", { key: app.keyB })).status).toBe(404);
    const a = await readSecretValues(app.rt.db.prisma, app.rt.secrets, app.workspaceA, ["SHARED_NAME"]);
    expect(a.get("SHARED_NAME")).toBe("value-of-a-1234");
    await expect(
      readSecretValues(app.rt.db.prisma, app.rt.secrets, app.workspaceB, ["SHARED_NAME"]),
    ).rejects.toMatchObject({ code: "secret_not_found" });
    await app.api("DELETE", "/api/v1/secrets/SHARED_NAME");
  });

  it("needs secrets:manage: admins and owners, and keys carrying it", async () => {
    const editor = await memberWithSession(app.rt, app.workspaceA, "editor");
    const admin = await memberWithSession(app.rt, app.workspaceA, "admin");
    const reader = await makeKey(app.rt, app.workspaceA, { scopes: ["rows:read", "schema:write"] });
    const manager = await makeKey(app.rt, app.workspaceA, { scopes: ["secrets:manage"] });
    for (const headers of [editor.headers, { "x-api-key": reader }]) {
      for (const [method, path] of [
        ["GET", "/api/v1/secrets"],
        ["POST", "/api/v1/secrets"],
        ["DELETE", "/api/v1/secrets/ANY"],
      ]) {
        const body = method === "POST" ? { name: "X", value: "v" } : undefined;
        const res = await app.api(method, path, { key: null, headers, body });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.error.code).toBe("insufficient_scope");
      }
    }
    const byAdmin = await app.api("POST", "/api/v1/secrets", {
      key: null,
      headers: admin.headers,
      body: { name: "BY_ADMIN", value: "admin-value-0000" },
    });
    expect(byAdmin.status).toBe(201);
    expect((await app.api("GET", "/api/v1/secrets", { key: manager })).body.secrets.map((s: any) => s.name)).toEqual([
      "BY_ADMIN",
    ]);
    expect((await app.api("DELETE", "/api/v1/secrets/BY_ADMIN", { key: manager })).status).toBe(200);
    const row = await app.rt.db.prisma.workspaceSecret.findFirst({ where: { workspaceId: app.workspaceA } });
    expect(row).toBeNull();
  });

  it("records who created and deleted which secret, by name only", async () => {
    await app.api("POST", "/api/v1/secrets", { body: { name: "AUDITED", value: "audited-value-9999" } });
    await app.api("POST", "/api/v1/secrets", { body: { name: "AUDITED", value: "audited-value-8888", replace: true } });
    await app.api("DELETE", "/api/v1/secrets/AUDITED");
    const res = await app.api("GET", "/api/v1/audit?action=secret.&targetId=AUDITED");
    expect(res.status).toBe(200);
    expect(res.body.entries.map((e: any) => [e.action, e.target, e.summary])).toEqual([
      ["secret.delete", { type: "secret", id: "AUDITED" }, { name: "AUDITED" }],
      ["secret.create", { type: "secret", id: "AUDITED" }, { name: "AUDITED", replace: true }],
      ["secret.create", { type: "secret", id: "AUDITED" }, { name: "AUDITED" }],
    ]);
    expect(res.text).not.toContain("audited-value");
  });

  it("caps the secrets of a workspace", async () => {
    const { workspaceSecret } = app.rt.db.prisma;
    await app.rt.db.prisma.$transaction(async (tx) => {
      for (let i = 0; i < QUOTAS.secretsPerWorkspace; i++)
        await createSecret(tx, app.rt.secrets, app.workspaceB, "test", { name: `S${i}`, value: "v", replace: false });
    });
    const res = await app.api("POST", "/api/v1/secrets", { key: app.keyB, body: { name: "ONE_MORE", value: "v" } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("limit_reached");
    // Replacing one in place is not one more.
    const replaced = await app.api("POST", "/api/v1/secrets", {
      key: app.keyB,
      body: { name: "S0", value: "v2", replace: true },
    });
    expect(replaced.status).toBe(201);
    await workspaceSecret.deleteMany({ where: { workspaceId: app.workspaceB } });
  });
});

describe("readSecretValues", () => {
  it("returns each value by name, and refuses naming every missing secret", async () => {
    const { prisma } = app.rt.db;
    await app.api("POST", "/api/v1/secrets", { body: { name: "ALPHA", value: "alpha-value" } });
    await app.api("POST", "/api/v1/secrets", { body: { name: "BETA", value: "beta-välue" } });
    const values = await readSecretValues(prisma, app.rt.secrets, app.workspaceA, ["ALPHA", "BETA", "ALPHA"]);
    expect([...values]).toEqual(
      expect.arrayContaining([
        ["ALPHA", "alpha-value"],
        ["BETA", "beta-välue"],
      ]),
    );
    expect(values.size).toBe(2);
    expect((await readSecretValues(prisma, app.rt.secrets, app.workspaceA, [])).size).toBe(0);
    const err = await readSecretValues(prisma, app.rt.secrets, app.workspaceA, ["ALPHA", "ZETA", "GAMMA"]).catch(
      (e) => e,
    );
    expect(err).toMatchObject({ code: "secret_not_found", details: { missing: ["GAMMA", "ZETA"] } });
    expect(err.message).toContain("GAMMA, ZETA");
  });

  it("refuses a ciphertext moved to another row", async () => {
    const { prisma } = app.rt.db;
    const alpha = await prisma.workspaceSecret.findFirstOrThrow({
      where: { workspaceId: app.workspaceA, name: "ALPHA" },
    });
    await prisma.workspaceSecret.update({
      where: { workspaceId_name: { workspaceId: app.workspaceA, name: "BETA" } },
      data: { ciphertext: alpha.ciphertext },
    });
    await expect(readSecretValues(prisma, app.rt.secrets, app.workspaceA, ["BETA"])).rejects.toMatchObject({
      code: "secret_unreadable",
    });
    await prisma.workspaceSecret.create({
      data: { ...alpha, id: "sec_moved", workspaceId: app.workspaceB },
    });
    await expect(readSecretValues(prisma, app.rt.secrets, app.workspaceB, ["ALPHA"])).rejects.toMatchObject({
      code: "secret_unreadable",
    });
    await prisma.workspaceSecret.deleteMany({ where: { name: { in: ["ALPHA", "BETA"] } } });
  });
});

it("records the caller as its creator", async () => {
  const admin = await memberWithSession(app.rt, app.workspaceA, "admin");
  await app.api("POST", "/api/v1/secrets", { key: null, headers: admin.headers, body: { name: "WHO", value: "who" } });
  await app.api("POST", "/api/v1/secrets", { body: { name: "WHO_KEY", value: "who" } });
  const rows = await app.rt.db.prisma.workspaceSecret.findMany({ where: { name: { in: ["WHO", "WHO_KEY"] } } });
  const by = Object.fromEntries(rows.map((r) => [r.name, r.createdBy]));
  expect(by.WHO).toBe(admin.userId);
  expect(by.WHO_KEY).toMatch(/^key_/);
  expect(rows.every((r) => r.last4 === "")).toBe(true);
});

it("two deletes of one secret at once: one deletes it, the other answers 404", async () => {
  await app.api("POST", "/api/v1/secrets", { body: { name: "RACED", value: "raced-value" } });
  const answers = await Promise.all([1, 2, 3].map(() => app.api("DELETE", "/api/v1/secrets/RACED")));
  expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404]);
});
