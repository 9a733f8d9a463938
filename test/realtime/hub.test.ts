import { describe, expect, it } from "vitest";
import { EventBus } from "../../lib/events.ts";
import { RealtimeHub } from "../../lib/realtime/hub.ts";
import { openEventStream } from "../../lib/realtime/sse.ts";

const cellEvent = (baseId: string, rowId: string, workspaceId = "ws_a") =>
  ({ type: "cell.updated", workspaceId, baseId, rowId, columnId: "scol_x", status: "done" }) as const;

function hubOnBus(opts = {}) {
  const bus = new EventBus();
  const hub = new RealtimeHub(opts);
  hub.attach(bus);
  return { bus, hub };
}

describe("RealtimeHub", () => {
  it("delivers a base's events to its subscribers only, scoped by workspace", () => {
    const { bus, hub } = hubOnBus();
    const seen: string[] = [];
    hub.subscribe("ws_a", "base1", null, (e) => seen.push(`${e.type}:${e.data.rowId}`));
    bus.emit([
      cellEvent("base1", "r1"),
      cellEvent("base2", "r2"),
      cellEvent("base1", "r3", "ws_b"),
      { type: "work.available" },
    ]);
    expect(seen).toEqual(["cell.updated:r1"]);
  });

  it("replays what a reconnecting client missed, in order", () => {
    const { bus, hub } = hubOnBus();
    bus.emit(cellEvent("b", "r1"));
    const last = hub.headId;
    bus.emit([cellEvent("b", "r2"), cellEvent("other", "x"), cellEvent("b", "r3")]);
    const sub = hub.subscribe("ws_a", "b", last, () => {});
    expect(sub.kind).toBe("replay");
    if (sub.kind === "replay") expect(sub.events.map((e) => e.data.rowId)).toEqual(["r2", "r3"]);
  });

  it("says reset when the missed events fell out of the ring, or the id is from another process", () => {
    const { bus, hub } = hubOnBus({ perBase: 3 });
    bus.emit(cellEvent("b", "r0"));
    const old = hub.headId;
    for (let i = 1; i <= 5; i++) bus.emit(cellEvent("b", `r${i}`));
    expect(hub.subscribe("ws_a", "b", old, () => {}).kind).toBe("reset");
    expect(hub.subscribe("ws_a", "b", "deadbeef.1", () => {}).kind).toBe("reset");
    expect(hub.subscribe("ws_a", "b", "garbage", () => {}).kind).toBe("reset");
    expect(hub.subscribe("ws_a", "b", hub.headId, () => {}).kind).toBe("replay");
  });

  it("says reset for a base whose buffer was evicted", () => {
    const { bus, hub } = hubOnBus({ maxBases: 2 });
    bus.emit(cellEvent("b1", "r"));
    const old = hub.headId;
    bus.emit([cellEvent("b1", "r2"), cellEvent("b2", "r"), cellEvent("b3", "r")]);
    expect(hub.subscribe("ws_a", "b1", old, () => {}).kind).toBe("reset");
    bus.emit(cellEvent("b1", "again"));
    expect(hub.subscribe("ws_a", "b1", old, () => {}).kind).toBe("reset");
  });

  it("summarises very large row changes instead of listing every id", () => {
    const { bus, hub } = hubOnBus({ maxRowIds: 2 });
    const got: unknown[] = [];
    hub.subscribe("ws_a", "b", null, (e) => got.push(e.data));
    bus.emit({ type: "rows.changed", workspaceId: "ws_a", baseId: "b", rowIds: ["a", "b", "c"], kind: "added" });
    expect(got).toEqual([{ kind: "added", rowIds: null, count: 3 }]);
  });
});

describe("openEventStream", () => {
  async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, needle: string) {
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes(needle)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    return text;
  }

  it("sends retry, replay, ready, live events and heartbeats, and unsubscribes on abort", async () => {
    const { bus, hub } = hubOnBus();
    bus.emit(cellEvent("b", "r1"));
    const last = hub.headId;
    bus.emit(cellEvent("b", "r2"));
    const abort = new AbortController();
    const stream = openEventStream(hub, {
      workspaceId: "ws_a",
      baseId: "b",
      lastEventId: last,
      heartbeatMs: 20,
      signal: abort.signal,
    });
    const reader = stream.getReader();
    const start = await readUntil(reader, "event: ready");
    expect(start).toMatch(/^retry: \d+/);
    expect(start).toContain('"rowId":"r2"');
    expect(start).not.toContain('"rowId":"r1"');
    bus.emit(cellEvent("b", "r3"));
    const live = await readUntil(reader, '"rowId":"r3"');
    expect(live).toMatch(/id: [0-9a-f]+\.\d+\nevent: cell.updated\n/);
    expect(await readUntil(reader, ": ping")).toContain(": ping");
    expect(hub.listenerCount("b")).toBe(1);
    abort.abort();
    expect(hub.listenerCount("b")).toBe(0);
  });

  it("starts with a reset event when the client is too far behind", async () => {
    const { hub } = hubOnBus();
    const stream = openEventStream(hub, { workspaceId: "ws_a", baseId: "b", lastEventId: "0000.99" });
    const reader = stream.getReader();
    const text = await readUntil(reader, "event: ready");
    expect(text).toContain("event: reset");
    await reader.cancel();
    expect(hub.listenerCount("b")).toBe(0);
  });
});
