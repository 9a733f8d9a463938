import type { IncomingMessage } from "node:http";

// The client's address, for the audit log. Only the edge (edge-listener.ts) sees the socket, so it
// writes the address into a header of its own, after deleting whatever a client sent under that
// name; route() reads it. Behind a trusted proxy (TRUST_PROXY=true) the address is the last entry
// of X-Forwarded-For: the one the proxy itself appended, which a client cannot forge. Without the
// edge in this process (`next dev`), the header is not trusted and the address is unknown (null).

export const CLIENT_IP_HEADER = "x-cellwright-client-ip";
const EDGE_MARK = Symbol.for("cellwright.edge-stamps-client-ip");

/** The edge's step: called for every request before the app sees it. */
export function stampClientIp(req: IncomingMessage, trustProxy: boolean): void {
  (globalThis as Record<symbol, unknown>)[EDGE_MARK] = true;
  delete req.headers[CLIENT_IP_HEADER];
  const ip = clientAddress(req.socket.remoteAddress, trustProxy ? req.headers["x-forwarded-for"] : undefined);
  if (ip) req.headers[CLIENT_IP_HEADER] = ip;
}

export function clientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined) {
  const forwarded = [forwardedFor ?? []]
    .flat()
    .join(",")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .at(-1);
  const ip = forwarded ?? socketAddress;
  if (!ip || ip.length > 100) return undefined;
  return ip.startsWith("::ffff:") && ip.includes(".") ? ip.slice(7) : ip;
}

/** The address the edge stamped on this request; null when no edge runs in this process. */
export function clientIpOf(req: Request): string | null {
  if ((globalThis as Record<symbol, unknown>)[EDGE_MARK] !== true) return null;
  return req.headers.get(CLIENT_IP_HEADER) || null;
}
