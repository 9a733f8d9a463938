import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { settled } from "../engine/helpers.ts";
import { waitFor } from "../support/wait.ts";
import { createBase } from "../support/bases.ts";
import { addRows, clearEndpoints, finished, processed, register, startRelay } from "./helpers.ts";

// With the engine on: a row with AI columns fires once, after its last AI cell is terminal,
// with the cells as the API shows them then. A slow receiver does not slow the engine.

let llm: FakeLlm;
let app: TestApp;
const receivers: WebhookReceiver[] = [];

const COLUMNS = [
  { name: "Company", type: "short-text", isPrimary: true },
  { name: "Industry", type: "short-text", isAiEnabled: true, inputColumns: ["Company"], instructions: "The industry." },
  { name: "Pitch", type: "long-text", isAiEnabled: true, inputColumns: ["Industry"], instructions: "A pitch." },
];

beforeAll(async () => {
  llm = await startFakeLlm();
  app = await createTestApp(
    {
      OPENAI_BASE_URL: llm.baseUrl,
      AI_MODEL: "openai:test-model",
      AI_MAX_ATTEMPTS: "1",
      AI_CONCURRENCY: "4",
      ALLOWED_PRIVATE_HOSTS: "127.0.0.1,::1",
      WEBHOOK_TIMEOUT_MS: "15000",
    },
    { engine: true },
  );
  await startRelay(app);
});
afterAll(async () => {
  await app.close();
  await llm.close();
});
afterEach(async () => {
  llm.setHandler(undefined);
  await clearEndpoints(app, receivers.splice(0));
});

async function receiver() {
  const r = await startWebhookReceiver();
  receivers.push(r);
  return r;
}

describe("rows with AI columns", () => {
  it("fire once per row after every AI cell finished, standard and expanded alike", async () => {
    const standard = await receiver();
    const expanded = await receiver();
    const standardHook = await register(app, standard);
    const expandedHook = await register(app, expanded, { expand: true });
    const { baseId } = await createBase(app, { columns: COLUMNS });
    llm.setHandler((req) => {
      if (req.lastUserText.includes("Column to fill: Industry")) {
        if (req.lastUserText.includes("Broken")) return { status: 400, message: "no" };
        return {
          json: { value: "Rockets", sources: [], confidenceScore: 0.8, additionalDetails: "known" },
          delayMs: 50,
        };
      }
      return {
        json: { value: "Fly high", sources: [], confidenceScore: 0.6, additionalDetails: "pitched" },
        delayMs: 50,
      };
    });
    const rows = await addRows(app, baseId, [{ Company: "Acme" }, { Company: "Beta" }, { Company: "Broken" }]);
    // Nothing is sent while cells are still pending.
    expect(standard.received).toHaveLength(0);

    const final = await settled(app, baseId);
    await processed(standard, 3);
    await processed(expanded, 3);
    // The outbox was written when the rows settled; once every message in it is finished, any
    // duplicate (a second message or a second attempt) would have reached the receivers.
    await finished(app, standardHook.id);
    await finished(app, expandedHook.id);
    // Exactly once per row: one message per row and endpoint, no duplicates.
    for (const r of [standard, expanded]) {
      expect(r.received).toHaveLength(3);
      expect(new Set(r.received.map((d) => d.payload.data.row.id))).toEqual(new Set(rows.map((x) => x.id)));
      expect(r.received.every((d) => d.verified)).toBe(true);
    }

    const byId = (r: WebhookReceiver, id: string) => r.received.find((d) => d.payload.data.row.id === id)!.payload;
    const std = (await app.api("GET", `/api/v1/bases/${baseId}/rows`)).body.rows;
    expect(final).toHaveLength(3);
    for (const row of final) {
      expect(byId(expanded, row.id).data.row).toEqual(row);
      expect(byId(standard, row.id).data.row).toEqual(std.find((s: any) => s.id === row.id));
    }
    const acme = byId(expanded, rows[0].id).data.row.cells;
    expect(acme.Industry).toEqual({
      value: "Rockets",
      status: "done",
      metadata: { sources: null, confidenceScore: 0.8, additionalDetails: "known" },
      needsReview: false,
      verified: false,
    });
    expect(acme.Pitch).toMatchObject({
      value: "Fly high",
      status: "done",
      metadata: { confidenceScore: 0.6, additionalDetails: "pitched" },
    });
    expect(byId(standard, rows[0].id).data.row.cells).toEqual({
      Company: "Acme",
      Industry: "Rockets",
      Pitch: "Fly high",
    });
    // A row whose cells ended in error is processed too: terminal is terminal.
    const broken = byId(expanded, rows[2].id).data.row.cells;
    expect(broken.Industry.status).toBe("error");
    expect(broken.Pitch).toMatchObject({ status: "error", error: { code: "input_failed" } });
  });

  it("fire again, once, when an update re-runs a row", async () => {
    const r = await receiver();
    const hook = await register(app, r);
    const { baseId } = await createBase(app, { columns: COLUMNS });
    const [row] = await addRows(app, baseId, [{ Company: "Acme" }]);
    await processed(r, 1);
    const res = await app.api("POST", `/api/v1/bases/${baseId}/update-rows`, {
      body: { rows: [{ id: row.id, cells: { Company: "Acme Corp" } }] },
    });
    expect(res.status, res.text).toBe(200);
    await processed(r, 2);
    await settled(app, baseId);
    // Settled rows wrote their messages; once all are finished, a third would have arrived.
    await finished(app, hook.id);
    expect(r.received).toHaveLength(2);
    expect(r.received[1].payload.data.row.cells.Company).toBe("Acme Corp");
  });
});

describe("a slow receiver", () => {
  it("never holds up the engine, and is bounded per endpoint", async () => {
    const slow = await receiver();
    slow.setDefault({ status: 200, delayMs: 20_000 });
    const slowHook = await register(app, slow);
    // A second, prompt endpoint on the same rows: each of its deliveries makes the relay claim
    // again, with the slow endpoint's messages due and waiting.
    const fast = await receiver();
    await register(app, fast);
    const { baseId } = await createBase(app, { columns: COLUMNS });
    llm.setHandler(() => ({ json: { value: "x", sources: [], confidenceScore: 1 } }));
    await addRows(
      app,
      baseId,
      Array.from({ length: 10 }, (_, i) => ({ Company: `C${i}` })),
    );
    const bound = app.rt.config.webhooks.concurrencyPerEndpoint;
    await waitFor(() => slow.inFlight === bound, "the receiver to hold the per-endpoint bound");
    // Every cell finishes while the receiver still sits on its first deliveries.
    await settled(app, baseId);
    expect(
      await app.rt.db.prisma.webhookMessage.count({ where: { endpointId: slowHook.id, status: "succeeded" } }),
    ).toBe(0);
    expect(await app.rt.db.prisma.webhookMessage.count({ where: { endpointId: slowHook.id, status: "pending" } })).toBe(
      10,
    );
    // The relay claimed (and delivered) all ten of the fast endpoint's messages while the slow
    // one sat at its bound: none of those claims took more of the slow endpoint's messages.
    await processed(fast, 10);
    expect(slow.maxInFlight).toBe(bound);
  });
});
