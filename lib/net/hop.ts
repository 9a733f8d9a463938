import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { appError } from "../errors.ts";
import type { VettedTarget } from "./guard.ts";

// One HTTP exchange with a vetted target. The socket can only reach the pinned address: the
// custom lookup ignores the name it is asked about, and a socket is kept for reuse only by the
// hops to that same address, name and port (agentFor), so a reused one reaches exactly what this
// hop's own check allowed, as a fresh one would.

export interface HopRequest {
  target: VettedTarget;
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  connectTimeoutMs: number;
  signal: AbortSignal;
}

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/** At most this many addresses keep idle connections; the one used least recently is closed first. */
const MAX_AGENTS = 128;
/** An idle connection is closed after this long, before a server's usual keep-alive timeout (5 s). */
const IDLE_MS = 4_000;
const agents = new Map<string, http.Agent>();

function agentFor(target: VettedTarget, isHttps: boolean): http.Agent {
  const key = `${target.url.protocol}//${target.hostname}:${target.url.port}@${target.address}`;
  let agent = agents.get(key);
  if (agent) agents.delete(key);
  else agent = new (isHttps ? https.Agent : http.Agent)({ keepAlive: true, maxFreeSockets: 32, timeout: IDLE_MS });
  agents.set(key, agent);
  if (agents.size > MAX_AGENTS) {
    const [oldest, old] = agents.entries().next().value as [string, http.Agent];
    agents.delete(oldest);
    old.destroy();
  }
  return agent;
}

export async function sendHop(req: HopRequest): Promise<IncomingMessage> {
  try {
    return await exchange(req, true);
  } catch (e) {
    // A kept connection the server closed as it was reused: the request most likely never reached
    // it (the case Node's documentation describes), so a request that may be repeated is sent once
    // more on a connection of its own. A POST or PATCH is not: its caller's retries decide.
    const repeatable = IDEMPOTENT.has(req.method.toUpperCase());
    if ((e as { reusedSocket?: boolean }).reusedSocket && repeatable && !req.signal.aborted)
      return exchange(req, false);
    throw e;
  }
}

function exchange(req: HopRequest, reuse: boolean): Promise<IncomingMessage> {
  const { target } = req;
  const pinned: LookupFunction = (_name, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const isHttps = target.url.protocol === "https:";
  const transport = isHttps ? https : http;

  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...req.headers, host: target.url.host };
    if (req.body) headers["content-length"] = String(req.body.length);
    const request = transport.request({
      protocol: target.url.protocol,
      host: target.hostname,
      port: target.url.port || (isHttps ? 443 : 80),
      path: `${target.url.pathname}${target.url.search}`,
      method: req.method,
      headers,
      lookup: pinned,
      agent: reuse ? agentFor(target, isHttps) : false,
      // SNI must carry the name, never an IP (Node refuses IP servernames anyway).
      ...(isHttps && !target.hostname.includes(":") && !/^[\d.]+$/.test(target.hostname)
        ? { servername: target.hostname }
        : {}),
      signal: req.signal,
    });

    let connectTimer: NodeJS.Timeout | undefined;
    request.on("socket", (socket) => {
      if (!socket.connecting) return;
      connectTimer = setTimeout(() => {
        request.destroy(appError("timeout", `Connecting took longer than ${req.connectTimeoutMs} ms.`));
      }, req.connectTimeoutMs);
      socket.once("connect", () => clearTimeout(connectTimer));
    });
    request.on("response", (res) => {
      clearTimeout(connectTimer);
      resolve(res);
    });
    request.on("error", (err) => {
      clearTimeout(connectTimer);
      const stale = request.reusedSocket && (err as { code?: string }).code === "ECONNRESET";
      reject(stale ? Object.assign(err, { reusedSocket: true }) : err);
    });
    request.end(req.body);
  });
}
