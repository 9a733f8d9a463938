import { afterAll, beforeAll, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { keyedApi, pickServerPort, startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { waitFor } from "../support/wait.ts";

// Kill -9 the real server while deliveries are pending (two hang at a slow receiver, the rest
// are waiting for a retry after a 500), start it again, and check that every row's delivery
// arrives, once per webhook-id, the receiver deduplicating what it had already processed.

const KEY = "cw_hookcrashhookcrashhookcrashhookcras0";
const ROWS = 12;
let receiver: WebhookReceiver;
let dataDir: string;
let server: ServerProcess | undefined;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  dataDir = mkdtempSync(path.join(tmpdir(), "cw-hook-crash-"));
});
afterAll(async () => {
  await server?.kill9();
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const env = () => ({
  DATA_DIR: dataDir,
  API_KEY: KEY,
  ALLOWED_PRIVATE_HOSTS: "127.0.0.1,::1",
  WEBHOOK_RETRY_SCHEDULE: "0,2000,2000,2000,2000,2000,2000,2000,2000,2000",
  // Its own build directory: suites that start the server may run in parallel.
});

const api = keyedApi(() => server, KEY);

it("delivers every pending message after kill -9, once per webhook-id", { timeout: 400_000 }, async () => {
  const port = await pickServerPort();
  server = await startServerProcess(env(), port);
  const base = await api("POST", "/api/v1/bases", {
    baseName: "Crash",
    columns: [{ name: "Company", isPrimary: true }],
  });
  expect(base.status).toBe(201);
  const hook = await api("POST", "/api/v1/webhooks", { url: receiver.url, events: ["row.sheet.processed"] });
  expect(hook.status).toBe(201);
  receiver.setSecrets(hook.body.secret);

  // The first two hang (processed by the receiver, but the answer never reaches the server);
  // every other attempt fails, so those messages wait for a retry.
  receiver.enqueue({ status: 200, delayMs: 120_000 }, { status: 200, delayMs: 120_000 });
  receiver.setDefault({ status: 500 });
  const add = await api("POST", `/api/v1/bases/${base.body.baseId}/add-rows`, {
    rows: Array.from({ length: ROWS }, (_, i) => ({ cells: { Company: `Company ${i}` } })),
  });
  expect(add.status).toBe(200);
  await waitFor(
    () => new Set(receiver.received.map((r) => r.id)).size === ROWS,
    "an attempt at every message",
    60_000,
    50,
  );
  expect(receiver.processed.size).toBe(2);
  await server.kill9();

  receiver.setDefault({ status: 200 });
  server = await startServerProcess(env(), port);
  await waitFor(() => receiver.processed.size === ROWS, "every message processed after the restart", 60_000, 100);
  const final = await waitFor(
    async () => {
      const list = (await api("GET", `/api/v1/webhooks/${hook.body.id}/deliveries?limit=100`)).body.deliveries as any[];
      return list.every((d) => d.status === "succeeded") ? list : undefined;
    },
    "every delivery to succeed",
    30_000,
    200,
  );

  expect(final).toHaveLength(ROWS);
  const rowIds = (add.body.rows as { id: string }[]).map((r) => r.id).sort();
  const deliveredRows = [...receiver.processed.values()].map((d) => d.payload.data.row.id).sort();
  expect(deliveredRows).toEqual(rowIds);
  expect(new Set(final.map((d) => d.id))).toEqual(new Set(receiver.processed.keys()));
  // The two that hung at the kill came again with the same id, and the receiver ignored them.
  expect(receiver.duplicates).toBeGreaterThanOrEqual(2);
  expect(receiver.received.length).toBeGreaterThan(0);
  expect(receiver.received.every((r) => r.verified)).toBe(true);
  await server.stop();
  server = undefined;
});
