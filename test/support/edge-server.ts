import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { answerClientError, edgeListener } from "../../lib/http/edge-listener.ts";
import { hostPolicy } from "../../lib/http/allowed-hosts.ts";
import { dispatch } from "./router.ts";

// The route handlers behind the same edge as `npm start` (security headers, the request guard),
// on a real socket: for suites that send what a hostile client sends, byte for byte, and still
// want the test app's database at hand. Next.js itself is left out (its routing is covered by the
// real-server suites); HEAD is served as GET without a body, as Next.js does.

export interface EdgeServer {
  url: string;
  close(): Promise<void>;
}

function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = req.method === "HEAD" ? "GET" : req.method!;
  const hasBody = method !== "GET" && method !== "OPTIONS";
  return new Request(origin + req.url, {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    duplex: "half",
  } as RequestInit);
}

async function serveWithRoutes(req: IncomingMessage, res: ServerResponse, origin: string) {
  // As the real server does: a body the handler left unread (a request refused before reading it,
  // past the rate limit) is discarded once the answer is out, so the kept-alive connection goes on.
  res.on("finish", () => {
    if (req.complete) return;
    req.removeAllListeners("data");
    req.resume();
  });
  let response: Response;
  try {
    response = await dispatch(toRequest(req, origin));
  } catch (e) {
    // What Next.js would turn into an HTML 500: the suites count it as the failure it is.
    res.writeHead(500, { "content-type": "text/plain" }).end(String(e));
    return;
  }
  // Set-Cookie is the one header that may come more than once: each stays its own line.
  const cookies = response.headers.getSetCookie();
  res.writeHead(response.status, {
    ...Object.fromEntries(response.headers),
    ...(cookies.length > 0 ? { "set-cookie": cookies } : {}),
  });
  if (!response.body || req.method === "HEAD") {
    await response.body?.cancel();
    return void res.end();
  }
  const body = Readable.fromWeb(response.body as never);
  res.on("close", () => body.destroy());
  body.on("error", () => res.destroy());
  body.pipe(res);
}

/** `hosts`: the host policy's settings, by default those of a server on 127.0.0.1 with none set. */
export async function startEdgeServer(
  hosts: { trustProxy?: boolean; publicUrl?: string; allowedHosts?: string[] } = {},
): Promise<EdgeServer> {
  let origin = "";
  const policy = hostPolicy({ host: "127.0.0.1", publicUrl: hosts.publicUrl, allowedHosts: hosts.allowedHosts ?? [] });
  const server = createServer(
    edgeListener(hosts.trustProxy ?? false, policy, (req, res) => void serveWithRoutes(req, res, origin)),
  );
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * Sends a request with its path exactly as written (fetch would normalise `..` and `//`). An
 * event stream is read only up to its headers, then dropped.
 */
export function rawRequest(
  baseUrl: string,
  r: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
  timeoutMs = 15_000,
): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, method: r.method, path: r.path, headers: r.headers, timeout: timeoutMs },
      (res) => {
        const headers = res.headers;
        if (String(headers["content-type"] ?? "").startsWith("text/event-stream")) {
          res.destroy();
          return resolve({ status: res.statusCode!, headers, text: "" });
        }
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode!, headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms: ${r.method} ${r.path}`)));
    req.on("error", reject);
    req.end(r.body);
  });
}
