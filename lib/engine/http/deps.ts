import type { Runtime } from "../../runtime.ts";
import { dbHttpCache } from "./cache.ts";
import type { HttpDeps } from "./http-call.ts";
import { localHostGate, sharedHostGate } from "./host-gate.ts";
import type { HostLookup } from "../../net/index.ts";

// What HTTP columns call providers with, one per runtime: the engine's cells and the column
// editor's previews share the host limits of their process.

const made = new WeakMap<Runtime, HttpDeps>();

export function httpDepsOf(rt: Runtime, owner: string, lookup?: HostLookup): HttpDeps {
  let deps = made.get(rt);
  if (!deps) {
    deps = {
      // One process owns the embedded database, so its host limits are kept in memory (host-gate.ts).
      gate: rt.db.exclusive ? localHostGate() : sharedHostGate(rt.db.prisma, owner),
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
