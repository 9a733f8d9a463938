import http from "node:http";
import type { AddressInfo } from "node:net";

// A data provider on 127.0.0.1, scripted per test: answers by path and query, latency, 429s with
// Retry-After, 5xx, malformed JSON. It counts what it was asked and how many calls were in flight
// at once, so the tests check limits from the provider's side, as a real provider would see them.

export interface ProviderRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface ProviderReply {
  status?: number;
  json?: unknown;
  /** Raw body text (for malformed answers); wins over json. */
  text?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

export type ProviderHandler = (req: ProviderRequest) => ProviderReply | Promise<ProviderReply>;

export interface FakeProvider {
  url: string;
  host: string;
  requests: ProviderRequest[];
  /** The most calls that were in flight at once. */
  maxInFlight(): number;
  /** Start times of the calls, in ms since the server started. */
  startedAt: number[];
  setHandler(h: ProviderHandler): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeProvider(handler: ProviderHandler = () => ({ json: {} })): Promise<FakeProvider> {
  let current = handler;
  let inFlight = 0;
  let peak = 0;
  const t0 = performance.now();
  const requests: ProviderRequest[] = [];
  const startedAt: number[] = [];
  const server = http.createServer(async (req, res) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    startedAt.push(performance.now() - t0);
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const request: ProviderRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      const reply = await current(request);
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      const body = reply.text ?? (reply.json === undefined ? "" : JSON.stringify(reply.json));
      res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
      res.end(body);
    } catch (e) {
      res.writeHead(500).end(String(e));
    } finally {
      inFlight--;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    startedAt,
    maxInFlight: () => peak,
    setHandler(h) {
      current = h;
    },
    reset() {
      requests.length = 0;
      startedAt.length = 0;
      peak = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
