import { isIP } from "node:net";
import type { Config } from "../config.ts";

// DNS rebinding: a page on attacker.example whose name is made to resolve to this server is
// same-origin with it in the browser, so cookies and CORS protect nothing. What still tells it
// apart is the Host header, which names attacker.example. A request is served only when the host
// it names is one this server answers to: localhost, any IP address (a page served from an IP
// address has that address as its origin, so no name was rebound), the address it listens on,
// PUBLIC_URL's host and ALLOWED_HOSTS. Names are compared without ports, as the MCP SDK's
// hostHeaderValidation middleware does: the socket a request arrived on already fixes the port,
// and a proxy in front may name the public one.

const WILDCARD_ADDRESSES = new Set(["0.0.0.0", "[::]"]);

export interface HostPolicy {
  /** The host names allowed besides IP addresses, normalised as URL hostnames. */
  readonly names: ReadonlySet<string>;
  /** Whether a Host (or X-Forwarded-Host) value names a host this server answers to. */
  allows(hostHeader: string | undefined): boolean;
}

/** A Host header's host name as a URL would hold it (lower case, IPv6 in brackets), or null when it is not a host[:port]. */
export function hostnameOf(hostHeader: string): string | null {
  if (!hostHeader || /[\s/\\?#@]/.test(hostHeader)) return null;
  const url = URL.parse(`http://${hostHeader}`);
  return url ? url.hostname.replace(/\.$/, "") : null;
}

const isAddress = (hostname: string) => isIP(hostname.replace(/^\[(.*)\]$/, "$1")) !== 0;

export function hostPolicy(config: Pick<Config, "host" | "publicUrl" | "allowedHosts">): HostPolicy {
  const names = new Set(["localhost"]);
  for (const host of [config.host, config.publicUrl && new URL(config.publicUrl).host, ...config.allowedHosts]) {
    const name = host ? hostnameOf(isIP(host) === 6 ? `[${host}]` : host) : null;
    if (name && !isAddress(name)) names.add(name);
  }
  return {
    names,
    allows(hostHeader) {
      const name = hostHeader === undefined ? null : hostnameOf(hostHeader);
      return name !== null && (names.has(name) || (isAddress(name) && !WILDCARD_ADDRESSES.has(name)));
    },
  };
}

/** The Host value a request names, and under a trusted proxy the X-Forwarded-Host one too: each must be allowed. */
export function namedHosts(
  headers: { get(name: string): string | null | undefined },
  trustProxy: boolean,
): (string | undefined)[] {
  const forwarded = trustProxy ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  return [headers.get("host") ?? undefined, ...(forwarded ? [forwarded] : [])];
}

/**
 * The same policy as the exact lists the MCP SDK's transport compares Host and Origin with, for
 * a request to `hostHeader`: every allowed name with that request's port (and without one), and
 * the request's own IP address when it names one.
 */
export function transportLists(
  policy: HostPolicy,
  hostHeader: string | undefined,
  publicUrl?: string,
): { allowedHosts: string[]; allowedOrigins: string[] } {
  const port = hostHeader ? (URL.parse(`http://${hostHeader}`)?.port ?? "") : "";
  const requested = hostHeader ? hostnameOf(hostHeader) : null;
  const names = [
    ...policy.names,
    ...(requested && isAddress(requested) && policy.allows(hostHeader) ? [requested] : []),
  ];
  const allowedHosts = names.flatMap((n) => (port ? [n, `${n}:${port}`] : [n]));
  const allowedOrigins = allowedHosts.flatMap((h) => [`http://${h}`, `https://${h}`]);
  return { allowedHosts, allowedOrigins: publicUrl ? [...allowedOrigins, publicUrl] : allowedOrigins };
}
