import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { appError } from "../errors.ts";
import type { VettedTarget } from "./guard.ts";

// One HTTP exchange with a vetted target. The socket can only reach the pinned address: the
// custom lookup ignores the name it is asked about, and no agent pools sockets across calls.

export interface HopRequest {
  target: VettedTarget;
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  connectTimeoutMs: number;
  signal: AbortSignal;
}

export function sendHop(req: HopRequest): Promise<IncomingMessage> {
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
      // A fresh connection per hop: a pooled socket could have been opened under other rules.
      agent: false,
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
      reject(err);
    });
    request.end(req.body);
  });
}
