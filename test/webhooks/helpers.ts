import { afterAll, beforeAll, expect } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { waitFor } from "../support/wait.ts";
import { startWebhookRelay, type RelayOptions, type WebhookRelay } from "../../lib/webhooks/relay.ts";

export const PLAIN_COLUMNS = [
  { name: "Company", type: "short-text", isPrimary: true },
  { name: "Notes", type: "long-text" },
];

/** The relay as boot starts it, polling often so retries come due promptly in tests. */
export function startRelay(app: TestApp, opts: RelayOptions = {}): Promise<WebhookRelay> {
  return startWebhookRelay(app.rt, { pollMs: 50, ...opts });
}

/** A suite's relay and local receiver: started before it, stopped after it. */
export function useRelayAndReceiver(app: () => TestApp) {
  const hooks = {} as { relay: WebhookRelay; receiver: WebhookReceiver };
  beforeAll(async () => {
    hooks.relay = await startRelay(app());
    hooks.receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await hooks.relay?.stop();
    await hooks.receiver?.close();
  });
  return hooks;
}

/**
 * An app that may deliver to 127.0.0.1 (the local receivers), its relay and a base of plain
 * columns, with `env` added to its settings.
 */
export async function openWebhookApp(env: Record<string, string>) {
  const app = await createTestApp({ ALLOWED_PRIVATE_HOSTS: "127.0.0.1,::1", ...env });
  const relay = await startRelay(app);
  const { baseId } = await createBase(app, { columns: PLAIN_COLUMNS });
  return { app, relay, baseId };
}

/** Closes a test's receivers and deletes every endpoint, so that the next test starts with none. */
export async function clearEndpoints(app: TestApp, receivers: (WebhookReceiver | undefined)[]) {
  for (const r of receivers) await r?.close();
  await app.rt.db.prisma.webhookEndpoint.deleteMany({});
}

export async function addRows(app: TestApp, baseId: string, cells: Record<string, unknown>[], key = app.keyA) {
  const res = await app.api("POST", `/api/v1/bases/${baseId}/add-rows`, {
    key,
    body: { rows: cells.map((c) => ({ cells: c })) },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.rows as { id: string; cells: Record<string, string> }[];
}

/** Registers an endpoint for the receiver and tells the receiver its secret. */
export async function register(
  app: TestApp,
  receiver: WebhookReceiver,
  body: Record<string, unknown> = {},
  key = app.keyA,
) {
  const res = await app.api("POST", "/api/v1/webhooks", {
    key,
    body: { url: receiver.url, events: ["row.sheet.processed"], ...body },
  });
  expect(res.status, res.text).toBe(201);
  receiver.setSecrets(res.body.secret);
  return res.body as { id: string; secret: string; [k: string]: unknown };
}

export async function deliveries(app: TestApp, endpointId: string, query = "") {
  const res = await app.api("GET", `/api/v1/webhooks/${endpointId}/deliveries${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { deliveries: any[]; nextCursor: string | null };
}

export async function endpoint(app: TestApp, endpointId: string) {
  const res = await app.api("GET", `/api/v1/webhooks/${endpointId}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Waits until the receiver has processed `n` distinct webhook-ids. */
export function processed(receiver: WebhookReceiver, n: number, timeoutMs = 10_000) {
  return waitFor(
    () => (receiver.processed.size >= n ? [...receiver.processed.values()] : undefined),
    `${n} deliveries processed`,
    timeoutMs,
    20,
  );
}

/** Waits until the receiver has received `n` requests (verified or not, any answer). */
export function received(receiver: WebhookReceiver, n: number, timeoutMs = 10_000) {
  return waitFor(
    () => (receiver.received.length >= n ? receiver.received.slice() : undefined),
    `${n} requests received`,
    timeoutMs,
    20,
  );
}

/** Waits until no delivery of the endpoint is pending, and returns them all. */
export async function finished(app: TestApp, endpointId: string, timeoutMs = 10_000) {
  return waitFor(
    async () => {
      const { deliveries: list } = await deliveries(app, endpointId, "?limit=100");
      return list.length > 0 && list.every((d) => d.status !== "pending") ? list : undefined;
    },
    "every delivery to finish",
    timeoutMs,
    50,
  );
}

/**
 * The positive signal before asserting that something was not sent: a fresh endpoint in
 * workspace B (so no endpoint of workspace A gets a message from it) is sent a new row, and
 * every delivery the relay had claimed meanwhile has finished. Claims go oldest due first, so
 * anything that was due before this call and was going to be sent has been sent (and logged).
 */
export async function relayWitness(app: TestApp, relay: WebhookRelay) {
  const witness = await startWebhookReceiver();
  try {
    const { baseId } = await createBase(app, { columns: PLAIN_COLUMNS, key: app.keyB, name: "Witness" });
    const hook = await register(app, witness, {}, app.keyB);
    await addRows(app, baseId, [{ Company: "Witness" }], app.keyB);
    await processed(witness, 1);
    await waitFor(() => relay.stats().inFlight === 0, "the relay to finish every delivery it claimed", 10_000, 20);
    await app.rt.db.prisma.webhookEndpoint.delete({ where: { id: hook.id } });
  } finally {
    await witness.close();
  }
}
