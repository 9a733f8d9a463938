import type { HostLookup, ResolvedAddress } from "../../lib/net/index.ts";
import type { DnsResolver, MxRecord } from "../../lib/tools/types.ts";

// An in-memory resolver for the DnsResolver port (MX look-ups) and the guard's HostLookup.
// Answers may be lists, to model a rebinding server that changes its answer between calls.

export interface FakeDnsOptions {
  mx?: Record<string, MxRecord[]>;
  /** Hostname → addresses; a list of lists answers differently on each call (last one repeats). */
  hosts?: Record<string, string[] | string[][]>;
  /** Domains whose MX look-up fails with this error code (e.g. ETIMEOUT). */
  mxErrors?: Record<string, string>;
}

export interface FakeDns extends DnsResolver {
  lookup: HostLookup;
  lookupCalls: string[];
  mxCalls: string[];
}

export function createFakeDns(opts: FakeDnsOptions = {}): FakeDns {
  const lookupCalls: string[] = [];
  const mxCalls: string[] = [];
  const hostCalls = new Map<string, number>();

  const lookup: HostLookup = async (hostname) => {
    lookupCalls.push(hostname);
    const answer = opts.hosts?.[hostname.toLowerCase()];
    if (!answer) throw Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    const n = hostCalls.get(hostname) ?? 0;
    hostCalls.set(hostname, n + 1);
    const list = Array.isArray(answer[0]) ? (answer as string[][]) : [answer as string[]];
    return list[Math.min(n, list.length - 1)].map(
      (address): ResolvedAddress => ({ address, family: address.includes(":") ? 6 : 4 }),
    );
  };

  return {
    lookup,
    lookupCalls,
    mxCalls,
    async resolveMx(domain) {
      mxCalls.push(domain);
      const code = opts.mxErrors?.[domain];
      if (code) throw Object.assign(new Error(`queryMx ${code} ${domain}`), { code });
      return opts.mx?.[domain.toLowerCase()] ?? [];
    },
  };
}
