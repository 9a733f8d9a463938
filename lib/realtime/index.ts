import type { Runtime } from "../runtime.ts";
import { RealtimeHub } from "./hub.ts";

export { RealtimeHub } from "./hub.ts";
export type { LiveEvent, LiveEventType, Subscription } from "./hub.ts";
export { openEventStream, formatEvent, SSE_HEADERS } from "./sse.ts";

// One hub per runtime, shared by every route bundle (Next.js bundles routes separately, so the
// map lives on globalThis like the runtime itself).
const KEY = Symbol.for("cellwright.realtime");
const hubs: WeakMap<Runtime, RealtimeHub> = ((globalThis as Record<symbol, WeakMap<Runtime, RealtimeHub>>)[KEY] ??= new WeakMap());

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
