import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import next from "next";
import type { Config } from "../config.ts";
import { guardApiRequest } from "../http/request-guard.ts";
import { allowedMethods } from "../http/schemas/index.ts";
import { securityHeaders } from "../http/security-headers.ts";
import { startControl } from "./control.ts";

/** TLS on this socket, or a trusted reverse proxy that says the browser used HTTPS. */
function isHttps(req: IncomingMessage, trustProxy: boolean): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const proto = trustProxy ? req.headers["x-forwarded-proto"] : undefined;
  return typeof proto === "string" && proto.split(",")[0].trim().toLowerCase() === "https";
}

/**
 * Serves the production build from this process: HTTP in front, Next.js behind. Requests under
 * /api pass the request guard first, so that what the framework would answer with a redirect, a
 * text 500 or an HTML page is answered in JSON from the error catalog instead.
 */
export async function serve(root: string, config: Config): Promise<void> {
  const app = next({ dev: false, dir: root, hostname: config.host, port: config.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const control = startControl(config);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    for (const [name, value] of Object.entries(securityHeaders(isHttps(req, config.trustProxy)))) res.setHeader(name, value);
    if (control?.(req, res)) return;
    const blocked = guardApiRequest(req.method ?? "GET", req.url ?? "/", allowedMethods);
    if (!blocked) return void handle(req, res);
    res.writeHead(blocked.status, blocked.headers);
    res.end(blocked.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, resolve);
  });
  console.log(`[cellwright] listening on http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port}`);
}
