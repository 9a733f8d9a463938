import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import type { WebhookRelay } from "../../lib/webhooks/relay.ts";
import { waitFor } from "../support/wait.ts";
import {
  addRows,
  clearEndpoints,
  deliveries,
  endpoint,
  finished,
  openWebhookApp,
  processed,
  register,
  relayWitness,
} from "./helpers.ts";

// Retries of a delivery over real HTTP to local receivers, on a short schedule (0, 1.2 s, 1.2 s):
// Retry-After, 410, redirects, and an endpoint failing for days. Payloads and the log: delivery.test.ts.

let app: TestApp;
let receiver: WebhookReceiver;
let baseId: string;
let relay: WebhookRelay;

beforeAll(async () => {
  ({ app, relay, baseId } = await openWebhookApp({ WEBHOOK_RETRY_SCHEDULE: "0,1200,1200" }));
});
afterAll(() => app.close());
afterEach(() => clearEndpoints(app, [receiver]));

describe("retries", () => {
  it("500, 500, 200: the same webhook-id each time, a new timestamp each time, every attempt logged", async () => {
    receiver = await startWebhookReceiver();
    receiver.enqueue({ status: 500, body: "boom" }, { status: 500 }, { status: 200 });
    const hook = await register(app, receiver);
    await addRows(app, baseId, [{ Company: "Retry" }]);
    await processed(receiver, 1);
    const got = receiver.received;
    expect(got.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(new Set(got.map((r) => r.id)).size).toBe(1);
    const ts = got.map((r) => Number(r.timestamp));
    expect(ts[1]).toBeGreaterThan(ts[0]);
    expect(ts[2]).toBeGreaterThan(ts[1]);
    expect(got.every((r) => r.verified && r.body === got[0].body)).toBe(true);
    expect(got[1].receivedAt - got[0].receivedAt).toBeGreaterThanOrEqual(1_080);

    const [d] = await finished(app, hook.id);
    expect(d.status).toBe("succeeded");
    expect(d.attempts.map((a: any) => [a.status, a.statusCode])).toEqual([
      ["failed", 500],
      ["failed", 500],
      ["succeeded", 200],
    ]);
    expect(d.attempts[0].error).toBe("HTTP 500: boom");
    // Success ends the endpoint's failure streak.
    expect((await endpoint(app, hook.id)).failingSince).toBeNull();
  });

  it("marks the message failed after the last attempt, and the endpoint failing since the first", async () => {
    receiver = await startWebhookReceiver();
    receiver.setDefault({ status: 503 });
    const hook = await register(app, receiver);
    const before = Date.now();
    await addRows(app, baseId, [{ Company: "Down" }]);
    const [d] = await finished(app, hook.id);
    expect(d.status).toBe("failed");
    expect(d.attemptCount).toBe(3);
    expect(d.nextAttemptAt).toBeNull();
    expect(receiver.received).toHaveLength(3);
    const e = await endpoint(app, hook.id);
    expect(e.enabled).toBe(true);
    expect(Date.parse(e.failingSince)).toBeGreaterThanOrEqual(before - 1000);
  });

  it("honours Retry-After", async () => {
    receiver = await startWebhookReceiver();
    receiver.enqueue({ status: 429, headers: { "retry-after": "3" } }, { status: 200 });
    await register(app, receiver);
    await addRows(app, baseId, [{ Company: "Later" }]);
    await processed(receiver, 1, 15_000);
    const [first, second] = receiver.received;
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(2_950);
  });

  it("410 Gone disables the endpoint, visibly, and nothing more is queued for it", async () => {
    receiver = await startWebhookReceiver();
    receiver.setDefault({ status: 410 });
    const hook = await register(app, receiver);
    await addRows(app, baseId, [{ Company: "Gone" }]);
    const [d] = await finished(app, hook.id);
    expect(d).toMatchObject({ status: "failed", attemptCount: 1 });
    const e = await endpoint(app, hook.id);
    expect(e).toMatchObject({ enabled: false, disabledReason: expect.stringContaining("410") });
    await addRows(app, baseId, [{ Company: "After" }]);
    // The relay has since delivered a later row elsewhere: nothing was sent here meanwhile.
    await relayWitness(app, relay);
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries(app, hook.id)).deliveries).toHaveLength(1);
  });

  it("a redirect is a failure and is not followed", async () => {
    receiver = await startWebhookReceiver();
    const elsewhere = await startWebhookReceiver();
    try {
      receiver.enqueue({ status: 307, headers: { location: elsewhere.url } }, { status: 200 });
      const hook = await register(app, receiver);
      await addRows(app, baseId, [{ Company: "Moved" }]);
      const [d] = await finished(app, hook.id);
      expect(d.attempts.map((a: any) => a.statusCode)).toEqual([307, 200]);
      expect(d.attempts[0].error).toMatch(/redirects are not followed/);
      expect(elsewhere.received).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it("disables an endpoint that has failed continuously for 5 days", async () => {
    receiver = await startWebhookReceiver();
    receiver.setDefault({ status: 500 });
    const hook = await register(app, receiver);
    const since = new Date(Date.now() - 5 * 86_400_000 - 60_000);
    await app.rt.db.prisma.webhookEndpoint.update({ where: { id: hook.id }, data: { failingSince: since } });
    await addRows(app, baseId, [{ Company: "Streak" }]);
    const e = await waitFor(async () => {
      const x = await endpoint(app, hook.id);
      return x.enabled ? undefined : x;
    }, "the endpoint to be disabled");
    expect(e.disabledReason).toMatch(/5 days/);
    expect(Date.parse(e.failingSince)).toBe(since.getTime());
    // The message's retry comes due (the schedule's real time, by design), and then the relay
    // delivers a later message elsewhere: a claim after the retry was due has run.
    const [pending] = (await deliveries(app, hook.id)).deliveries;
    expect(pending).toMatchObject({ status: "pending", attemptCount: 1 });
    await waitFor(() => Date.now() > Date.parse(pending.nextAttemptAt), "the retry to come due", 5_000, 20);
    await relayWitness(app, relay);
    // Disabled endpoints are not delivered to: the message waits for the endpoint to be enabled again.
    expect(receiver.received).toHaveLength(1);
  });
});
