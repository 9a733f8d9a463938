import { describe, expect, it } from "vitest";
import { EventBus } from "../../lib/events.ts";
import { RealtimeHub, RUN_UPDATE_INTERVAL_MS } from "../../lib/realtime/hub.ts";
import { waitFor } from "../support/wait.ts";

// run.updated and find.updated reach a base's live stream at most 4 times a second per run or
// find, and the last update of a burst is never dropped.

const runEvent = (runId: string) => ({ type: "run.updated", workspaceId: "ws_a", baseId: "b", runId }) as const;

describe("run.updated in the live stream", () => {
  it("throttles a burst to one now and one trailing update per run, runs independently", async () => {
    const bus = new EventBus();
    const hub = new RealtimeHub();
    hub.attach(bus);
    const seen: { runId: unknown; at: number }[] = [];
    hub.subscribe("ws_a", "b", null, (e) => seen.push({ runId: e.data.runId, at: Date.now() }));
    const start = Date.now();
    for (let i = 0; i < 50; i++) bus.emit([runEvent("run_1"), runEvent("run_2")]);
    expect(seen.map((s) => s.runId)).toEqual(["run_1", "run_2"]);
    await waitFor(() => seen.length === 4, "the trailing updates");
    expect(
      seen
        .slice(2)
        .map((s) => s.runId)
        .sort(),
    ).toEqual(["run_1", "run_2"]);
    for (const s of seen.slice(2)) expect(s.at - start).toBeGreaterThanOrEqual(RUN_UPDATE_INTERVAL_MS - 5);
    hub.stop();
  });

  it("throttles find.updated per find, apart from the runs, and carries the find's id", async () => {
    const bus = new EventBus();
    const hub = new RealtimeHub();
    hub.attach(bus);
    const seen: string[] = [];
    hub.subscribe("ws_a", "b", null, (e) => seen.push(`${e.type}:${e.data.findId ?? e.data.runId}`));
    const findEvent = (findId: string) => ({ type: "find.updated", workspaceId: "ws_a", baseId: "b", findId }) as const;
    for (let i = 0; i < 20; i++) bus.emit([findEvent("x"), runEvent("x")]);
    expect(seen).toEqual(["find.updated:x", "run.updated:x"]);
    await waitFor(() => seen.length === 4, "the trailing updates");
    expect(seen.slice(2).sort()).toEqual(["find.updated:x", "run.updated:x"]);
    hub.stop();
  });
});
