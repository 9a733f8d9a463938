import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { addRows, clearEndpoints, finished, openWebhookApp, processed, register } from "./helpers.ts";

// Bounded parallelism per endpoint, isolation of a slow endpoint from a fast one, and the timeout.

let app: TestApp;
let baseId: string;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  ({ app, baseId } = await openWebhookApp({
    WEBHOOK_CONCURRENCY_PER_ENDPOINT: "2",
    WEBHOOK_TIMEOUT_MS: "800",
    WEBHOOK_RETRY_SCHEDULE: "0,200",
  }));
});
afterAll(() => app.close());
afterEach(() => clearEndpoints(app, receivers.splice(0)));

async function receiver() {
  const r = await startWebhookReceiver();
  receivers.push(r);
  return r;
}

describe("parallelism", () => {
  it("keeps at most WEBHOOK_CONCURRENCY_PER_ENDPOINT deliveries in flight per endpoint, and a slow one does not hold up a fast one", async () => {
    const slow = await receiver();
    const fast = await receiver();
    slow.setDefault({ status: 200, delayMs: 250 });
    await register(app, slow);
    await register(app, fast);
    await addRows(
      app,
      baseId,
      Array.from({ length: 8 }, (_, i) => ({ Company: `C${i}` })),
    );
    await processed(fast, 8);
    // The fast endpoint got everything while the slow one was still working through its queue.
    expect(slow.received.length).toBeLessThan(8);
    await processed(slow, 8);
    expect(slow.maxInFlight).toBe(2);
    expect(fast.maxInFlight).toBeLessThanOrEqual(2);
  });
});

describe("timeout", () => {
  it("gives up on an answer slower than WEBHOOK_TIMEOUT_MS and logs a timeout", async () => {
    const r = await receiver();
    r.setDefault({ status: 200, delayMs: 3_000 });
    const hook = await register(app, r);
    await addRows(app, baseId, [{ Company: "Slow" }]);
    const [d] = await finished(app, hook.id);
    expect(d.status).toBe("failed");
    expect(d.attempts).toHaveLength(2);
    for (const a of d.attempts) {
      expect(a).toMatchObject({ status: "failed", statusCode: null, error: expect.stringMatching(/^timeout: /) });
      expect(a.durationMs).toBeGreaterThanOrEqual(750);
      expect(a.durationMs).toBeLessThan(2_500);
    }
  });
});
