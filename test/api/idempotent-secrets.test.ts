import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { ENDPOINTS } from "../../lib/http/schemas/index.ts";
import { secretFieldsOf } from "../../lib/http/endpoint.ts";

// An answer that carries a secret (a new API key, a webhook's signing secret) is stored for
// Idempotency-Key replays without it: the replay is the same resource with the secret null and
// `Idempotency-Withheld` naming the field. The store is read directly: no secret is in it, and a
// replay neither mints a second secret nor shows the first again.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ ALLOWED_PRIVATE_HOSTS: "127.0.0.1,::1" });
});
afterAll(() => app.close());

const keyed = (key: string) => ({ headers: { "idempotency-key": key } });
/** Every row of the replay store, every column, as text. */
const storeText = async () => JSON.stringify(await app.rt.db.prisma.$queryRawUnsafe("SELECT * FROM idempotency_keys"));

describe("secrets and Idempotency-Key", () => {
  it("Create API key: the replay is the same key without its secret, and the store never holds it", async () => {
    const prisma = app.rt.db.prisma;
    const before = await prisma.apiKey.count({ where: { workspaceId: app.workspaceA } });
    const first = await app.api("POST", "/api/v1/api-keys", { body: { name: "CI" }, ...keyed("new-key") });
    expect(first.status, first.text).toBe(201);
    expect(first.body.key).toMatch(/^cw_[A-Za-z0-9]{40}$/);
    expect(first.headers.get("idempotency-withheld")).toBeNull();
    const stored = await storeText();
    expect(stored).toContain(first.body.id);
    expect(stored).not.toContain(first.body.key);

    const again = await app.api("POST", "/api/v1/api-keys", { body: { name: "CI" }, ...keyed("new-key") });
    expect([
      again.status,
      again.headers.get("idempotency-replayed"),
      again.headers.get("idempotency-withheld"),
    ]).toEqual([201, "true", "key"]);
    expect(again.body).toEqual({ ...first.body, key: null });
    expect(await prisma.apiKey.count({ where: { workspaceId: app.workspaceA } })).toBe(before + 1);
    // The key shown once works.
    expect((await app.api("GET", "/api/v1/bases", { key: first.body.key })).status).toBe(200);
  });

  it("Register webhook and Rotate secret: replays carry no secret, and rotate once", async () => {
    const prisma = app.rt.db.prisma;
    const body = { url: "http://127.0.0.1:9/hook", events: ["row.sheet.processed"] };
    const created = await app.api("POST", "/api/v1/webhooks", { body, ...keyed("hook") });
    expect(created.status, created.text).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    const replayed = await app.api("POST", "/api/v1/webhooks", { body, ...keyed("hook") });
    expect([replayed.status, replayed.headers.get("idempotency-withheld")]).toEqual([201, "secret"]);
    expect(replayed.body).toEqual({ ...created.body, secret: null });
    expect(await prisma.webhookEndpoint.count({ where: { workspaceId: app.workspaceA } })).toBe(1);

    const path = `/api/v1/webhooks/${created.body.id}/rotate-secret`;
    const rotated = await app.api("POST", path, { body: { gracePeriodSeconds: 60 }, ...keyed("rotate") });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    const again = await app.api("POST", path, { body: { gracePeriodSeconds: 60 }, ...keyed("rotate") });
    expect([
      again.status,
      again.headers.get("idempotency-replayed"),
      again.headers.get("idempotency-withheld"),
    ]).toEqual([200, "true", "secret"]);
    expect(again.body).toEqual({ ...rotated.body, secret: null });
    // Rotated once: the secret is the one the first answer showed, the previous one the original.
    const row = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.body.id } });
    expect([row.secret, row.previousSecret]).toEqual([rotated.body.secret, created.body.secret]);

    const stored = await storeText();
    for (const secret of [created.body.secret, rotated.body.secret]) expect(stored).not.toContain(secret);
  });

  it("stores nothing for a sign-in (its session cookie is a secret): it is not keyed by a workspace", async () => {
    const res = await app.api("POST", "/api/v1/session", {
      key: null,
      body: { apiKey: app.keyA },
      headers: { "idempotency-key": "sign-in", origin: "http://localhost" },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("set-cookie")).toMatch(/^cellwright_session=/);
    expect(await app.rt.db.prisma.idempotencyKey.count({ where: { key: "sign-in" } })).toBe(0);
  });

  it("marks every response field that looks like a secret as one", () => {
    const looksSecret = /^(key|secret|token|password)$|(Key|Secret|Token|Password)$/;
    for (const e of ENDPOINTS) {
      const shape = (e.response as { shape?: Record<string, unknown> }).shape ?? {};
      const named = Object.keys(shape).filter((f) => looksSecret.test(f));
      // A link that carries a token (an invitation, a password reset) is a secret by another name.
      const creates = e.method === "POST" && ["/api/v1/invitations", "/api/v1/password-resets"].includes(e.path);
      const links = creates ? ["url"] : [];
      expect(secretFieldsOf(e), `${e.method} ${e.path}`).toEqual([...named, ...links]);
    }
    const marked = ENDPOINTS.filter((e) => secretFieldsOf(e).length > 0).map((e) => `${e.method} ${e.path}`);
    expect(marked.sort()).toEqual([
      "POST /api/v1/api-keys",
      "POST /api/v1/invitations",
      "POST /api/v1/password-resets",
      "POST /api/v1/webhooks",
      "POST /api/v1/webhooks/{webhookId}/rotate-secret",
    ]);
  });
});
