import { describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { TARGET_QUERY } from "../support/fake-world.ts";
import { worldModel } from "../support/world-model.ts";
import { deliveries, processed, useRelayAndReceiver } from "../webhooks/helpers.ts";
import { hubFor, type LiveEvent } from "../../lib/realtime/index.ts";
import { stopped, useFindApp } from "./helpers.ts";

// A find told to the outside: find.updated on the base's live stream as it goes, and one signed
// find.completed webhook, with the find as GET returns it, once it stops.

const t = useFindApp();
const hooks = useRelayAndReceiver(() => t.app);

describe("find events", () => {
  it("streams find.updated, and delivers find.completed once, signed, to the endpoints subscribed to it", async () => {
    t.llm.setHandler(worldModel());
    const { baseId } = await createBase(t.app, {
      columns: [
        { name: "Company", type: "short-text", isPrimary: true },
        { name: "Website", type: "url" },
      ],
    });
    const unknown = await t.app.api("POST", "/api/v1/webhooks", {
      body: { url: hooks.receiver.url, events: ["find.done"] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain("find.completed");
    const registered = await t.app.api("POST", "/api/v1/webhooks", {
      body: { url: hooks.receiver.url, events: ["find.completed"], baseId },
    });
    expect(registered.status, registered.text).toBe(201);
    expect(registered.body.events).toEqual(["find.completed"]);
    hooks.receiver.setSecrets(registered.body.secret);

    const live: LiveEvent[] = [];
    const sub = hubFor(t.app.rt).subscribe(t.app.workspaceA, baseId, null, (e) => live.push(e));
    const started = await t.app.api("POST", `/api/v1/bases/${baseId}/finds`, {
      body: { query: TARGET_QUERY, criteria: ["Based in Berlin", "Makes software"], count: 2 },
    });
    expect(started.status, started.text).toBe(202);
    const find = await stopped(t.app, baseId, started.body.id);
    expect(find).toMatchObject({ phase: "done", stopReason: "target" });

    const [delivery] = await processed(hooks.receiver, 1, 20_000);
    expect(delivery.verified).toBe(true);
    expect(delivery.payload).toMatchObject({ type: "find.completed", data: { baseId } });
    const sent = delivery.payload.data.find;
    expect(sent).toMatchObject({ id: find.id, runId: find.runId, phase: "done", stopReason: "target" });
    expect(sent.candidates.added).toBe(2);
    expect(sent.criteria.map((c: { text: string }) => c.text)).toEqual(["Based in Berlin", "Makes software"]);
    // Only the event it subscribed to: no row.sheet.processed, no run.completed.
    await new Promise((r) => setTimeout(r, 300));
    expect(hooks.receiver.received.map((d) => d.payload.type)).toEqual(["find.completed"]);
    const log = await deliveries(t.app, registered.body.id);
    expect(log.deliveries.map((d) => [d.eventType, d.status])).toEqual([["find.completed", "succeeded"]]);

    sub.unsubscribe();
    const updates = live.filter((e) => e.type === "find.updated");
    expect(updates.length).toBeGreaterThanOrEqual(2);
    for (const e of updates) expect(e.data).toEqual({ findId: find.id });
  });
});
