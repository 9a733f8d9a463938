import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { EMITS_NOTHING, scenarios } from "../api/scenario.ts";
import { createBase } from "../support/bases.ts";
import { PLAIN_COLUMNS } from "./helpers.ts";

// The endpoint API: registration, management, rotation and validation (workspace isolation:
// endpoint-isolation.test.ts).
// Private targets are allowed here (the receivers of other suites live on 127.0.0.1); the guard
// itself is tested in guard.test.ts.

let app: TestApp;
let baseA: string;
let baseB: string;
let hook: any;
const URL_A = "http://127.0.0.1:9/hooks";

beforeAll(async () => {
  app = await createTestApp({ ALLOWED_PRIVATE_HOSTS: "127.0.0.1,::1" });
  baseA = (await createBase(app, { columns: PLAIN_COLUMNS })).baseId;
  baseB = (await createBase(app, { columns: PLAIN_COLUMNS, key: app.keyB })).baseId;
  hook = (
    await app.api("POST", "/api/v1/webhooks", {
      body: { url: URL_A, events: ["row.sheet.processed"], description: "CRM sync" },
    })
  ).body;
});
afterAll(() => app.close());

describe("register", () => {
  it("answers the record with the secret, once", async () => {
    expect(hook).toMatchObject({
      id: expect.stringMatching(/^wh_/),
      url: URL_A,
      events: ["row.sheet.processed"],
      baseId: null,
      expand: false,
      description: "CRM sync",
      enabled: true,
      disabledReason: null,
      failingSince: null,
      previousSecretExpiresAt: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
    });
    expect(Buffer.from(hook.secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);
    const got = await app.api("GET", `/api/v1/webhooks/${hook.id}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty("secret");
    const list = await app.api("GET", "/api/v1/webhooks");
    expect(list.body.webhooks.map((w: any) => w.id)).toEqual([hook.id]);
    expect(list.text).not.toContain(hook.secret);
  });

  it("scopes to one base of the workspace when baseId is given", async () => {
    const res = await app.api("POST", "/api/v1/webhooks", {
      body: { url: URL_A, events: ["row.sheet.processed"], baseId: baseA, expand: true, enabled: false },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ baseId: baseA, expand: true, enabled: false });
    await app.api("DELETE", `/api/v1/webhooks/${res.body.id}`);
  });

  scenarios(
    () => app,
    [
      {
        name: "unknown event → 400",
        method: "POST",
        path: "/api/v1/webhooks",
        body: { url: URL_A, events: ["row.created"] },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "no events → 400",
        method: "POST",
        path: "/api/v1/webhooks",
        body: { url: URL_A, events: [] },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "no url → 400",
        method: "POST",
        path: "/api/v1/webhooks",
        body: { events: ["row.sheet.processed"] },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "unknown field → 400",
        method: "POST",
        path: "/api/v1/webhooks",
        body: { url: URL_A, events: ["row.sheet.processed"], secret: "mine" },
        status: 400,
        code: "validation_failed",
        ...EMITS_NOTHING,
      },
      {
        name: "not http(s) → 400",
        method: "POST",
        path: "/api/v1/webhooks",
        body: { url: "ftp://127.0.0.1/x", events: ["row.sheet.processed"] },
        status: 400,
        code: "blocked_url",
        ...EMITS_NOTHING,
      },
      {
        name: "not a URL → 400",
        method: "POST",
        path: "/api/v1/webhooks",
        body: { url: "hooks", events: ["row.sheet.processed"] },
        status: 400,
        code: "blocked_url",
        ...EMITS_NOTHING,
      },
      {
        name: "a base that does not exist → 404",
        method: "POST",
        path: "/api/v1/webhooks",
        body: { url: URL_A, events: ["row.sheet.processed"], baseId: "Nope1234" },
        status: 404,
        code: "base_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "another workspace's base → 404",
        method: "POST",
        path: "/api/v1/webhooks",
        body: () => ({ url: URL_A, events: ["row.sheet.processed"], baseId: baseB }),
        status: 404,
        code: "base_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "no key → 401",
        method: "POST",
        path: "/api/v1/webhooks",
        key: null,
        body: { url: URL_A, events: ["row.sheet.processed"] },
        status: 401,
        code: "missing_api_key",
        ...EMITS_NOTHING,
      },
      {
        name: "PUT → 405",
        method: "PUT",
        path: () => `/api/v1/webhooks/${hook.id}`,
        body: {},
        status: 405,
        code: "method_not_allowed",
        ...EMITS_NOTHING,
      },
      {
        name: "unknown id → 404",
        method: "GET",
        path: "/api/v1/webhooks/wh_missing",
        status: 404,
        code: "webhook_not_found",
        ...EMITS_NOTHING,
      },
    ],
  );
});

describe("manage", () => {
  it("updates fields, re-checks the URL and the base", async () => {
    const res = await app.api("PATCH", `/api/v1/webhooks/${hook.id}`, {
      body: { expand: true, description: null, baseId: baseA, url: "http://127.0.0.1:10/other" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      expand: true,
      description: null,
      baseId: baseA,
      url: "http://127.0.0.1:10/other",
    });
    expect(res.body).not.toHaveProperty("secret");
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(hook.updatedAt));
    expect((await app.api("PATCH", `/api/v1/webhooks/${hook.id}`, { body: { baseId: baseB } })).status).toBe(404);
    expect((await app.api("PATCH", `/api/v1/webhooks/${hook.id}`, { body: { url: "gopher://x" } })).status).toBe(400);
    expect((await app.api("PATCH", `/api/v1/webhooks/${hook.id}`, { body: { events: ["nope"] } })).status).toBe(400);
    const back = await app.api("PATCH", `/api/v1/webhooks/${hook.id}`, {
      body: { baseId: null, url: URL_A, expand: false },
    });
    expect(back.body).toMatchObject({ baseId: null, url: URL_A, expand: false });
  });

  it("enabling again clears why it was disabled and the failure streak", async () => {
    await app.rt.db.prisma.webhookEndpoint.update({
      where: { id: hook.id },
      data: { enabled: false, disabledReason: "The endpoint answered 410 Gone.", failingSince: new Date() },
    });
    expect((await app.api("GET", `/api/v1/webhooks/${hook.id}`)).body).toMatchObject({
      enabled: false,
      disabledReason: "The endpoint answered 410 Gone.",
    });
    const res = await app.api("PATCH", `/api/v1/webhooks/${hook.id}`, { body: { enabled: true } });
    expect(res.body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  it("rotates the secret with a grace period (24 h unless told)", async () => {
    const first = await app.api("POST", `/api/v1/webhooks/${hook.id}/rotate-secret`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.secret).toMatch(/^whsec_/);
    expect(first.body.secret).not.toBe(hook.secret);
    const grace = Date.parse(first.body.previousSecretExpiresAt) - Date.now();
    expect(grace).toBeGreaterThan(23.9 * 3600_000);
    expect(grace).toBeLessThanOrEqual(24 * 3600_000);
    const stored = await app.rt.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: hook.id } });
    expect(stored).toMatchObject({ secret: first.body.secret, previousSecret: hook.secret });

    const short = await app.api("POST", `/api/v1/webhooks/${hook.id}/rotate-secret`, {
      body: { gracePeriodSeconds: 60 },
    });
    expect(Date.parse(short.body.previousSecretExpiresAt) - Date.now()).toBeLessThanOrEqual(60_000);
    const none = await app.api("POST", `/api/v1/webhooks/${hook.id}/rotate-secret`, {
      body: { gracePeriodSeconds: 0 },
    });
    expect(none.body.previousSecretExpiresAt).toBeNull();
    expect(
      (await app.api("POST", `/api/v1/webhooks/${hook.id}/rotate-secret`, { body: { gracePeriodSeconds: -1 } })).status,
    ).toBe(400);
    hook.secret = none.body.secret;
  });

  it("deletes", async () => {
    const made = await app.api("POST", "/api/v1/webhooks", { body: { url: URL_A, events: ["row.sheet.processed"] } });
    const del = await app.api("DELETE", `/api/v1/webhooks/${made.body.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: made.body.id, deleted: true });
    expect((await app.api("GET", `/api/v1/webhooks/${made.body.id}`)).status).toBe(404);
    expect((await app.api("DELETE", `/api/v1/webhooks/${made.body.id}`)).status).toBe(404);
  });
});
