import type { Runtime } from "../../runtime.ts";
import { dbHttpCache } from "./cache.ts";
import type { HttpDeps } from "./http-call.ts";
import { localHostGate } from "./host-gate.ts";
import { sharedHostGate } from "./shared-host-gate.ts";
import type { HostLookup } from "../../net/index.ts";

// What HTTP columns call providers with, one per runtime: the engine's cells and the column
// editor's previews share the host limits of their process.

const made = new WeakMap<Runtime, HttpDeps>();

export function httpDepsOf(rt: Runtime, owner: string, lookup?: HostLookup): HttpDeps {
  let deps = made.get(rt);
  if (!deps) {
    // One process owns the embedded database, so its host limits are kept in memory (host-gate.ts).
    const gate = rt.db.exclusive ? localHostGate() : sharedHostGate(rt.db, owner);
    // Services stop in reverse: registered before the engine's (startEngine asks for these first),
    // the gate stops after the engine's calls are over.
    if (gate.close) rt.services.push({ name: "host gate", stop: gate.close });
    deps = {
      gate,
      cache: dbHttpCache(rt.db.prisma),
      fetch: {
        maxBytes: rt.config.fetch.maxBytes,
        connectTimeoutMs: rt.config.fetch.connectTimeoutMs,
        allowedPrivateHosts: rt.config.fetch.allowedPrivateHosts,
        lookup,
      },
    };
    made.set(rt, deps);
  }
  return deps;
}
