import type { Runtime } from "../runtime.ts";
import { RealtimeHub } from "./hub.ts";
import { assertBelow, QUOTAS } from "../domain/limits.ts";

export { RealtimeHub } from "./hub.ts";
export type { LiveEvent, LiveEventType, Subscription } from "./hub.ts";
export { openEventStream, formatEvent, SSE_HEADERS } from "./sse.ts";

// One hub per runtime, shared by every route bundle (Next.js bundles routes separately, so the
// map lives on globalThis like the runtime itself).
const KEY = Symbol.for("cellwright.realtime");
const hubs: WeakMap<Runtime, RealtimeHub> = ((globalThis as Record<symbol, WeakMap<Runtime, RealtimeHub>>)[KEY] ??=
  new WeakMap());

export function hubFor(rt: Runtime): RealtimeHub {
  let hub = hubs.get(rt);
  if (!hub) {
    const created = new RealtimeHub();
    created.attach(rt.bus);
    rt.services.push({ name: "realtime", stop: async () => created.stop() });
    hubs.set(rt, (hub = created));
  }
  return hub;
}

const SLOTS = Symbol.for("cellwright.streamSlots");
const openStreams: WeakMap<Runtime, Map<string, number>> = ((
  globalThis as Record<symbol, WeakMap<Runtime, Map<string, number>>>
)[SLOTS] ??= new WeakMap());

/**
 * Takes one of a key's event-stream slots in this process (at most QUOTAS.eventStreamsPerKey
 * open at once), or answers 409 limit_reached. Returns the function that gives it back.
 */
export function claimStreamSlot(rt: Runtime, keyId: string): () => void {
  let counts = openStreams.get(rt);
  if (!counts) openStreams.set(rt, (counts = new Map()));
  const open = counts.get(keyId) ?? 0;
  assertBelow(
    open,
    QUOTAS.eventStreamsPerKey,
    `An API key has at most ${QUOTAS.eventStreamsPerKey} event streams open at once`,
  );
  counts.set(keyId, open + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (counts.get(keyId) ?? 1) - 1;
    if (left > 0) counts.set(keyId, left);
    else counts.delete(keyId);
  };
}
