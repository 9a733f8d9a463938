import { lookup as dnsLookup } from "node:dns/promises";
import { appError, isAppError } from "../errors.ts";
import { blockedReason, isIpLiteral, matchesAddress } from "./ip-policy.ts";

// Turns a URL string into a vetted target: a parsed URL plus the one IP address the request
// will connect to. Resolving once and pinning that address is what defeats DNS rebinding.

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a hostname to all its addresses. Injectable so tests never touch real DNS. */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: HostLookup = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** A non-public address (IP or CIDR), optionally one port, that an operator chose to allow. */
export interface AllowedTarget {
  address: string;
  port?: number;
}

export interface GuardOptions {
  /**
   * ALLOWED_PRIVATE_HOSTS: host names, IP addresses and CIDR ranges that may be non-public. A
   * listed name may resolve anywhere; any other name must resolve to public or listed addresses.
   */
  allowedPrivateHosts?: readonly string[];
  /** Narrow exceptions to the block, e.g. one internal webhook receiver; every hop is checked. */
  allowedTargets?: AllowedTarget[];
  lookup?: HostLookup;
}

export interface VettedTarget {
  url: URL;
  /** Hostname without IPv6 brackets, as used for the Host header and TLS SNI. */
  hostname: string;
  address: string;
  family: 4 | 6;
}

export function parseHttpUrl(raw: string | URL): URL {
  let url: URL;
  try {
    // WHATWG parsing canonicalises odd IPv4 spellings (127.1, 0x7f.1, 2130706433, 0177.0.0.1)
    // into dotted decimal, so the IP policy only ever sees one spelling.
    url = new URL(String(raw));
  } catch {
    throw appError("blocked_url", "The URL is not valid.", { url: String(raw) });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw appError("blocked_url", `Only http and https URLs are allowed, not ${url.protocol}`, {
      url: url.href,
    });
  }
  if (!url.hostname) throw appError("blocked_url", "The URL has no host.", { url: url.href });
  return url;
}

/** Parses, resolves and vets a URL; throws blocked_url or fetch_failed. */
export async function vetUrl(raw: string | URL, opts: GuardOptions = {}): Promise<VettedTarget> {
  const url = parseHttpUrl(raw);
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const listed = opts.allowedPrivateHosts ?? [];
  const nameListed = listed.some((entry) => entry.toLowerCase() === hostname.toLowerCase());

  if (!nameListed && isLocalName(hostname)) {
    throw appError("blocked_url", "Local hostnames are not allowed.", { url: url.href });
  }

  const addresses = isIpLiteral(hostname)
    ? [{ address: hostname, family: hostname.includes(":") ? 6 : 4 } as ResolvedAddress]
    : await resolve(hostname, opts.lookup ?? systemLookup, url);

  if (!nameListed) {
    // Every answer must be public: a mixed answer would let an attacker win on a retry or on a
    // resolver that orders differently.
    const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
    for (const a of addresses) {
      const reason = blockedReason(a.address);
      if (
        reason &&
        !isAllowedTarget(a.address, port, opts.allowedTargets ?? []) &&
        !listed.some((entry) => matchesAddress(a.address, entry))
      ) {
        throw appError("blocked_url", `The URL points to a non-public address (${reason}).`, {
          url: url.href,
        });
      }
    }
  }
  const chosen = addresses[0];
  return { url, hostname, address: chosen.address, family: chosen.family };
}

/** Registration-time check (e.g. webhook endpoints): the URL must be http(s) and resolve publicly. */
export async function assertPublicUrl(raw: string | URL, opts: GuardOptions = {}): Promise<URL> {
  return (await vetUrl(raw, opts)).url;
}

async function resolve(hostname: string, lookup: HostLookup, url: URL): Promise<ResolvedAddress[]> {
  let found: ResolvedAddress[];
  try {
    found = await lookup(hostname);
  } catch (e) {
    if (isAppError(e)) throw e;
    const code = (e as { code?: string }).code ?? "error";
    throw appError("fetch_failed", `Could not resolve ${hostname} (${code}).`, { url: url.href });
  }
  if (found.length === 0) {
    throw appError("fetch_failed", `Could not resolve ${hostname}.`, { url: url.href });
  }
  return found;
}

function isAllowedTarget(address: string, port: number, allowed: AllowedTarget[]): boolean {
  return allowed.some((t) => (t.port === undefined || t.port === port) && matchesAddress(address, t.address));
}

function isLocalName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  return h === "localhost" || h.endsWith(".localhost");
}
