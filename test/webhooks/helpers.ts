import { expect } from "vitest";
import type { TestApp } from "../support/app.ts";
import type { WebhookReceiver } from "../support/webhook-receiver.ts";
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

export async function createBase(app: TestApp, columns: unknown[] = PLAIN_COLUMNS, key = app.keyA, baseName = "Hooks") {
  const res = await app.api("POST", "/api/v1/bases", { key, body: { baseName, columns } });
  expect(res.status, res.text).toBe(201);
  return { baseId: res.body.baseId as string, sheetId: res.body.sheet?.id as string | undefined };
}

export async function addRows(app: TestApp, baseId: string, cells: Record<string, unknown>[], key = app.keyA) {
  const res = await app.api("POST", `/api/v1/bases/${baseId}/add-rows`, { key, body: { rows: cells.map((c) => ({ cells: c })) } });
  expect(res.status, res.text).toBe(200);
  return res.body.rows as { id: string; cells: Record<string, string> }[];
}

/** Registers an endpoint for the receiver and tells the receiver its secret. */
export async function register(app: TestApp, receiver: WebhookReceiver, body: Record<string, unknown> = {}, key = app.keyA) {
  const res = await app.api("POST", "/api/v1/webhooks", { key, body: { url: receiver.url, events: ["row.sheet.processed"], ...body } });
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
  return waitFor(() => (receiver.processed.size >= n ? [...receiver.processed.values()] : undefined), `${n} deliveries processed`, timeoutMs, 20);
}

/** Waits until the receiver has received `n` requests (verified or not, any answer). */
export function received(receiver: WebhookReceiver, n: number, timeoutMs = 10_000) {
  return waitFor(() => (receiver.received.length >= n ? receiver.received.slice() : undefined), `${n} requests received`, timeoutMs, 20);
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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
