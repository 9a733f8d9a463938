import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { EMITS_NOTHING, scenarios } from "../api/scenario.ts";

// Workspace isolation of the endpoint API: another workspace's key reaches none of A's endpoints
// and deliveries, and changes nothing. The rest of the endpoint API: endpoints.test.ts.

let app: TestApp;
let hook: any;
const URL_A = "http://127.0.0.1:9/hooks";

beforeAll(async () => {
  app = await createTestApp({ ALLOWED_PRIVATE_HOSTS: "127.0.0.1,::1" });
  hook = (
    await app.api("POST", "/api/v1/webhooks", {
      body: { url: URL_A, events: ["row.sheet.processed"], description: "CRM sync" },
    })
  ).body;
});
afterAll(() => app.close());

describe("workspace isolation: B's key on A's endpoint and deliveries", () => {
  let deliveryId: string;
  beforeAll(async () => {
    deliveryId = "msg_isolation0000000000000001";
    await app.rt.db.prisma.webhookMessage.create({
      data: {
        id: deliveryId,
        endpointId: hook.id,
        workspaceId: app.workspaceA,
        eventType: "row.sheet.processed",
        body: "{}",
        status: "failed",
      },
    });
  });

  scenarios(
    () => app,
    [
      {
        name: "GET",
        method: "GET",
        path: () => `/api/v1/webhooks/${hook.id}`,
        key: "B",
        status: 404,
        code: "webhook_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "PATCH",
        method: "PATCH",
        path: () => `/api/v1/webhooks/${hook.id}`,
        key: "B",
        body: { enabled: false },
        status: 404,
        code: "webhook_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "DELETE",
        method: "DELETE",
        path: () => `/api/v1/webhooks/${hook.id}`,
        key: "B",
        status: 404,
        code: "webhook_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "rotate-secret",
        method: "POST",
        path: () => `/api/v1/webhooks/${hook.id}/rotate-secret`,
        key: "B",
        status: 404,
        code: "webhook_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "deliveries",
        method: "GET",
        path: () => `/api/v1/webhooks/${hook.id}/deliveries`,
        key: "B",
        status: 404,
        code: "webhook_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "redeliver",
        method: "POST",
        path: () => `/api/v1/webhooks/${hook.id}/deliveries/${deliveryId}/redeliver`,
        key: "B",
        status: 404,
        code: "webhook_not_found",
        ...EMITS_NOTHING,
      },
    ],
  );

  it("B sees none of A's endpoints, and cannot reach A's delivery through its own endpoint", async () => {
    expect((await app.api("GET", "/api/v1/webhooks", { key: app.keyB })).body).toEqual({ webhooks: [] });
    const own = await app.api("POST", "/api/v1/webhooks", {
      key: app.keyB,
      body: { url: URL_A, events: ["row.sheet.processed"] },
    });
    const res = await app.api("POST", `/api/v1/webhooks/${own.body.id}/deliveries/${deliveryId}/redeliver`, {
      key: app.keyB,
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("delivery_not_found");
    expect(
      (await app.api("GET", `/api/v1/webhooks/${own.body.id}/deliveries`, { key: app.keyB })).body.deliveries,
    ).toEqual([]);
  });

  it("left A's endpoint and delivery as they were", async () => {
    const res = await app.api("GET", `/api/v1/webhooks/${hook.id}`);
    expect(res.body).toMatchObject({ enabled: true, url: URL_A });
    const stored = await app.rt.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: hook.id } });
    expect(stored.secret).toBe(hook.secret);
    const msg = await app.rt.db.prisma.webhookMessage.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(msg.status).toBe("failed");
  });
});
