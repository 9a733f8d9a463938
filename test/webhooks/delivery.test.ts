import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/app.ts";
import { startWebhookReceiver, verifyDelivery, type WebhookReceiver } from "../support/webhook-receiver.ts";
import type { WebhookRelay } from "../../lib/webhooks/relay.ts";
import { waitFor } from "../support/wait.ts";
import { createBase } from "../support/bases.ts";
import {
  addRows,
  clearEndpoints,
  deliveries,
  finished,
  openWebhookApp,
  PLAIN_COLUMNS,
  processed,
  received,
  register,
  relayWitness,
} from "./helpers.ts";

// Delivery over real HTTP to local receivers: payloads, signatures, the delivery log and
// redelivery, rotation. Retries (on a short schedule, 0, 1.2 s, 1.2 s): retries.test.ts.

let app: TestApp;
let receiver: WebhookReceiver;
let baseId: string;
let sheetId: string;
let relay: WebhookRelay;

beforeAll(async () => {
  ({ app, relay, baseId } = await openWebhookApp({ WEBHOOK_RETRY_SCHEDULE: "0,1200,1200" }));
  sheetId = (await app.api("GET", `/api/v1/bases/${baseId}/base-structure`)).body.sheet.id;
});
afterAll(() => app.close());
afterEach(() => clearEndpoints(app, [receiver]));

describe("payload and signature", () => {
  it("fires right after add-rows for rows without AI columns: standard cells, verified", async () => {
    receiver = await startWebhookReceiver();
    const hook = await register(app, receiver);
    const [row] = await addRows(app, baseId, [{ Company: "Acme" }]);
    const [got] = await processed(receiver, 1);
    expect(got.verified).toBe(true);
    expect(got.id).toMatch(/^msg_/);
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.payload).toEqual({
      type: "row.sheet.processed",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: { baseId, sheetId, row: { id: row.id, cells: { Company: "Acme", Notes: "" } } },
    });
    expect(Math.abs(Number(got.timestamp) * 1000 - Date.now())).toBeLessThan(10_000);
    const [d] = await finished(app, hook.id);
    expect(d).toMatchObject({
      id: got.id,
      status: "succeeded",
      attemptCount: 1,
      attempts: [{ status: "succeeded", statusCode: 204, error: null }],
    });
    expect(d.attempts[0].durationMs).toBeGreaterThanOrEqual(0);
  });

  it("a body with one byte flipped fails verification", async () => {
    receiver = await startWebhookReceiver();
    const hook = await register(app, receiver);
    await addRows(app, baseId, [{ Company: "Flip" }]);
    const [got] = await processed(receiver, 1);
    expect(verifyDelivery(hook.secret, got.body, got.headers)).toBeTruthy();
    const bytes = Buffer.from(got.body);
    bytes[bytes.indexOf("Flip")] ^= 0x01;
    expect(() => verifyDelivery(hook.secret, bytes, got.headers)).toThrow(/signature/i);
    expect(() => verifyDelivery(hook.secret, got.body, { ...got.headers, "webhook-id": "msg_other" })).toThrow();
  });

  it("expand: true sends the expanded form", async () => {
    receiver = await startWebhookReceiver();
    await register(app, receiver, { expand: true });
    await addRows(app, baseId, [{ Company: "Wide", Notes: "n" }]);
    const [got] = await processed(receiver, 1);
    expect(got.payload.data.row.cells).toEqual({ Company: { value: "Wide" }, Notes: { value: "n" } });
  });

  it("sends only to enabled endpoints of this base or of every base; update-rows fires again", async () => {
    receiver = await startWebhookReceiver();
    const other = await createBase(app, { columns: PLAIN_COLUMNS, name: "Other" });
    const all = await register(app, receiver);
    const onlyOther = await register(app, receiver, { baseId: other.baseId });
    const off = await register(app, receiver, { enabled: false });
    const [row] = await addRows(app, baseId, [{ Company: "One" }]);
    await addRows(app, other.baseId, [{ Company: "Two" }]);
    await app.api("POST", `/api/v1/bases/${baseId}/update-rows`, {
      body: { rows: [{ id: row.id, cells: { Notes: "changed" } }] },
    });
    await finished(app, all.id);
    await finished(app, onlyOther.id);
    expect((await deliveries(app, all.id)).deliveries).toHaveLength(3);
    expect((await deliveries(app, onlyOther.id)).deliveries).toHaveLength(1);
    expect((await deliveries(app, off.id)).deliveries).toHaveLength(0);
    const companies = receiver.received.map((r) => r.payload.data.row.cells.Company).sort();
    expect(companies).toEqual(["One", "One", "Two", "Two"]);
    const update = receiver.received.find((r) => r.payload.data.row.cells.Notes === "changed");
    expect(update?.payload.data.row.id).toBe(row.id);
  });
});

describe("delivery log and redelivery", () => {
  it("pages newest first and filters by status", async () => {
    receiver = await startWebhookReceiver();
    const hook = await register(app, receiver);
    await addRows(app, baseId, [{ Company: "P1" }, { Company: "P2" }, { Company: "P3" }]);
    await processed(receiver, 3);
    await finished(app, hook.id);
    const first = await deliveries(app, hook.id, "?limit=2");
    expect(first.deliveries).toHaveLength(2);
    expect(first.nextCursor).toBeTruthy();
    const second = await deliveries(app, hook.id, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.deliveries).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    const ids = [...first.deliveries, ...second.deliveries].map((d) => d.id);
    expect(new Set(ids)).toEqual(new Set(receiver.processed.keys()));
    expect((await deliveries(app, hook.id, "?status=failed")).deliveries).toEqual([]);
    expect((await deliveries(app, hook.id, "?status=succeeded")).deliveries).toHaveLength(3);
    expect((await app.api("GET", `/api/v1/webhooks/${hook.id}/deliveries?limit=0`)).status).toBe(400);
    expect((await app.api("GET", `/api/v1/webhooks/${hook.id}/deliveries?cursor=bogus`)).body.error.code).toBe(
      "invalid_cursor",
    );
    expect((await app.api("GET", `/api/v1/webhooks/${hook.id}/deliveries?status=lost`)).status).toBe(400);
  });

  it("redelivers a finished delivery once, with the same id and body", async () => {
    receiver = await startWebhookReceiver();
    const hook = await register(app, receiver);
    await addRows(app, baseId, [{ Company: "Again" }]);
    const [first] = await processed(receiver, 1);
    await finished(app, hook.id);
    const res = await app.api("POST", `/api/v1/webhooks/${hook.id}/deliveries/${first.id}/redeliver`);
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({ id: first.id, status: "pending" });
    const [, again] = await received(receiver, 2);
    expect(again).toMatchObject({ id: first.id, body: first.body, verified: true, duplicate: true });
    const [d] = await finished(app, hook.id);
    expect(d).toMatchObject({ status: "succeeded", attemptCount: 2 });
    expect((await app.api("POST", `/api/v1/webhooks/${hook.id}/deliveries/msg_nope/redeliver`)).body.error.code).toBe(
      "delivery_not_found",
    );
  });

  it("a redelivery that fails is one attempt, with no automatic retries after it", async () => {
    receiver = await startWebhookReceiver();
    receiver.setDefault({ status: 500 });
    const hook = await register(app, receiver);
    await addRows(app, baseId, [{ Company: "Broken" }]);
    const [d] = await finished(app, hook.id);
    expect(d.attemptCount).toBe(3);
    await app.api("POST", `/api/v1/webhooks/${hook.id}/deliveries/${d.id}/redeliver`);
    await received(receiver, 4);
    const [after] = await finished(app, hook.id);
    expect(after).toMatchObject({ status: "failed", attemptCount: 4 });
    // Wait out the schedule's retry delay (1.2 s, +10% jitter), by design, then let the relay
    // deliver a later message elsewhere: an automatic retry would have been claimed by then.
    const lastEnded = Math.max(...after.attempts.map((a: any) => Date.parse(a.attemptedAt) + a.durationMs));
    await waitFor(() => Date.now() > lastEnded + 1_500, "the time an automatic retry would have come due", 5_000, 20);
    await relayWitness(app, relay);
    expect(receiver.received).toHaveLength(4);
  });
});

describe("secret rotation", () => {
  it("both signatures verify during the grace period; afterwards only the new one", async () => {
    receiver = await startWebhookReceiver();
    const hook = await register(app, receiver);
    const rotated = (await app.api("POST", `/api/v1/webhooks/${hook.id}/rotate-secret`)).body;
    receiver.setSecrets(hook.secret, rotated.secret);
    await addRows(app, baseId, [{ Company: "Rotating" }]);
    const [during] = await processed(receiver, 1);
    expect(during.signature.split(" ")).toHaveLength(2);
    expect(during.verifiedWith).toEqual([0, 1]);

    await app.api("POST", `/api/v1/webhooks/${hook.id}/rotate-secret`, { body: { gracePeriodSeconds: 0 } });
    const latest = (await app.rt.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: hook.id } })).secret;
    receiver.setSecrets(rotated.secret, latest);
    await addRows(app, baseId, [{ Company: "Rotated" }]);
    const after = (await processed(receiver, 2)).find((r) => r.id !== during.id)!;
    expect(after.signature.split(" ")).toHaveLength(1);
    expect(after.verifiedWith).toEqual([1]);
  });
});
