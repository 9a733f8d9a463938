import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { ERROR_CATALOG } from "../errors.ts";
import { namedHosts, type HostPolicy } from "./allowed-hosts.ts";
import { guardApiRequest } from "./request-guard.ts";
import { allowedMethods } from "./schemas/index.ts";
import { securityHeaders } from "./security-headers.ts";
import { stampClientIp } from "./client-ip.ts";

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** TLS on this socket, or a trusted reverse proxy that says the browser used HTTPS. */
function isHttps(req: IncomingMessage, trustProxy: boolean): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const proto = trustProxy ? req.headers["x-forwarded-proto"] : undefined;
  return typeof proto === "string" && proto.split(",")[0].trim().toLowerCase() === "https";
}

/** The refusal of a request naming a host this server does not answer to (DNS rebinding), before any session or cookie. */
function hostRefusal(req: IncomingMessage, trustProxy: boolean, hosts: HostPolicy) {
  if (namedHosts({ get: (name) => req.headers[name] as string | undefined }, trustProxy).every((h) => hosts.allows(h)))
    return null;
  const { status, message } = ERROR_CATALOG.host_not_allowed;
  const body = JSON.stringify({
    error: { code: "host_not_allowed", message: `${message} Add it to ALLOWED_HOSTS or set PUBLIC_URL to serve it.` },
  });
  return { status, headers: { "content-type": "application/json; charset=utf-8" }, body };
}

// Supervisors poll the health check. Next.js gzips every API answer whose client accepts it, small
// or not (its answers carry no length when compressed), and a fresh gzip stream per answer of 150
// bytes, which it makes no smaller, was a tenth of the server thread's time under bench:health's
// pings. The health check's answer goes as it is.
const isHealthCheck = (url = "") => url === "/api/health" || url.startsWith("/api/health?");

/**
 * What every request meets before the app: the security headers, the host check (pages too),
 * then, under /api, the request guard, so that what the framework would answer with a redirect, a
 * text 500 or an HTML page is answered in JSON from the error catalog instead. `handle` serves
 * whatever passes.
 */
export function edgeListener(
  trustProxy: boolean,
  hosts: HostPolicy,
  handle: NodeHandler,
  control?: ((req: IncomingMessage, res: ServerResponse) => boolean) | null,
): NodeHandler {
  return (req, res) => {
    for (const [name, value] of Object.entries(securityHeaders(isHttps(req, trustProxy)))) res.setHeader(name, value);
    if (control?.(req, res)) return;
    const blocked =
      hostRefusal(req, trustProxy, hosts) ?? guardApiRequest(req.method ?? "GET", req.url ?? "/", allowedMethods);
    if (!blocked) {
      stampClientIp(req, trustProxy);
      if (isHealthCheck(req.url)) delete req.headers["accept-encoding"];
      return void handle(req, res);
    }
    res.writeHead(blocked.status, blocked.headers);
    res.end(blocked.body);
  };
}

/**
 * Answers what Node's HTTP parser refuses before any handler runs (an unknown method, a broken
 * request line, oversized headers) in JSON from the catalog too, instead of Node's bare 400.
 * Serve as the server's `clientError` listener.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || err.code === "ECONNRESET" || err.code === "ERR_HTTP_REQUEST_TIMEOUT")
    return void socket.destroy();
  const code = err.code === "HPE_HEADER_OVERFLOW" ? "headers_too_large" : "malformed_request";
  const { status, message } = ERROR_CATALOG[code];
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
