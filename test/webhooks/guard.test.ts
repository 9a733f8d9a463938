import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createFakeDns } from "../support/fake-dns.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { waitFor } from "../support/wait.ts";
import { EMITS_NOTHING, scenarios } from "../api/scenario.ts";
import { createEndpoint, createEndpointSchema } from "../../lib/webhooks/endpoints.ts";
import { createBase } from "../support/bases.ts";
import { addRows, deliveries, PLAIN_COLUMNS, startRelay } from "./helpers.ts";

// The outbound guard on (ALLOWED_PRIVATE_HOSTS unset): private and loopback targets are refused
// at registration, and again at delivery, where a name that resolved publicly at registration
// now resolves to loopback (DNS rebinding).

let app: TestApp;
let receiver: WebhookReceiver;

beforeAll(async () => {
  app = await createTestApp({ WEBHOOK_RETRY_SCHEDULE: "0,100" });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await app.close();
});

const hook = (url: string) => ({ url, events: ["row.sheet.processed"] });

describe("registration", () => {
  scenarios(
    () => app,
    [
      {
        name: "a loopback IP → 400",
        method: "POST",
        path: "/api/v1/webhooks",
        body: () => hook(receiver.url),
        status: 400,
        code: "blocked_url",
        ...EMITS_NOTHING,
      },
      {
        name: "localhost → 400",
        method: "POST",
        path: "/api/v1/webhooks",
        body: hook("http://localhost:8080/x"),
        status: 400,
        code: "blocked_url",
        ...EMITS_NOTHING,
      },
      {
        name: "a private IP → 400",
        method: "POST",
        path: "/api/v1/webhooks",
        body: hook("https://10.0.0.8/x"),
        status: 400,
        code: "blocked_url",
        ...EMITS_NOTHING,
      },
      {
        name: "loopback spelled as a decimal → 400",
        method: "POST",
        path: "/api/v1/webhooks",
        body: hook("http://2130706433/x"),
        status: 400,
        code: "blocked_url",
        ...EMITS_NOTHING,
      },
      {
        name: "cloud metadata → 400",
        method: "POST",
        path: "/api/v1/webhooks",
        body: hook("http://169.254.169.254/latest"),
        status: 400,
        code: "blocked_url",
        ...EMITS_NOTHING,
      },
      {
        name: "IPv6 loopback → 400",
        method: "POST",
        path: "/api/v1/webhooks",
        body: hook("http://[::1]/x"),
        status: 400,
        code: "blocked_url",
        ...EMITS_NOTHING,
      },
    ],
  );

  it("refuses a name that resolves to loopback", async () => {
    const dns = createFakeDns({ hosts: { "hooks.example.test": ["127.0.0.1"] } });
    const input = createEndpointSchema.parse(hook("https://hooks.example.test/x"));
    await expect(createEndpoint(app.rt, app.workspaceA, input, { lookup: dns.lookup })).rejects.toMatchObject({
      code: "blocked_url",
    });
    expect(dns.lookupCalls).toEqual(["hooks.example.test"]);
    expect(await app.rt.db.prisma.webhookEndpoint.count()).toBe(0);
  });

  it("accepts a name that resolves publicly", async () => {
    const dns = createFakeDns({ hosts: { "hooks.example.test": ["93.184.216.34"] } });
    const made = await createEndpoint(
      app.rt,
      app.workspaceA,
      createEndpointSchema.parse(hook("https://hooks.example.test/x")),
      { lookup: dns.lookup },
    );
    expect(made.url).toBe("https://hooks.example.test/x");
    await app.rt.db.prisma.webhookEndpoint.delete({ where: { id: made.id } });
  });
});

describe("delivery", () => {
  it("blocks DNS rebinding: public at registration, loopback at delivery", async () => {
    const dns = createFakeDns({ hosts: { "hooks.example.test": [["93.184.216.34"], ["127.0.0.1"]] } });
    const url = `http://hooks.example.test:${receiver.port}/hooks`;
    const made = await createEndpoint(app.rt, app.workspaceA, createEndpointSchema.parse(hook(url)), {
      lookup: dns.lookup,
    });
    await startRelay(app, { lookup: dns.lookup });
    const { baseId } = await createBase(app, { columns: PLAIN_COLUMNS });
    await addRows(app, baseId, [{ Company: "Rebind" }]);
    const d = await waitFor(async () => {
      const [x] = (await deliveries(app, made.id)).deliveries;
      return x?.status === "failed" ? x : undefined;
    }, "the delivery to fail");
    expect(d.attempts).toHaveLength(2);
    for (const a of d.attempts)
      expect(a).toMatchObject({
        status: "failed",
        statusCode: null,
        error: expect.stringMatching(/^blocked_url: .*loopback/),
      });
    // Resolved again at every attempt, never pinned from registration.
    expect(dns.lookupCalls).toEqual(["hooks.example.test", "hooks.example.test", "hooks.example.test"]);
    // The message is failed for good and both of its attempts are logged, so every attempt there
    // will be has ended: had one connected, the receiver would have recorded it before that.
    expect(receiver.received).toHaveLength(0);
  });
});
