// A webhook receiver over real HTTP on 127.0.0.1. It verifies every delivery with the
// `standardwebhooks` package, the way an integrator would, and deduplicates by webhook-id.
//
// Script answers with `receiver.enqueue({ status: 500 }, ...)` (used first, in order) or
// `receiver.setDefault({ status: 200, delayMs: 5000 })`; unscripted requests get 204.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface ReceiverReply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering (a slow receiver). */
  delayMs?: number;
}

export interface ReceivedDelivery {
  id: string;
  timestamp: string;
  signature: string;
  headers: Record<string, string>;
  /** The raw body exactly as it arrived. */
  body: string;
  path: string;
  receivedAt: number;
  /** Verified with at least one of the configured secrets. */
  verified: boolean;
  /** Indexes of the configured secrets that verify it on their own. */
  verifiedWith: number[];
  payload: any;
  /** The status the receiver answered with. */
  status: number;
  /** The id had been processed before (a redelivery the receiver ignores). */
  duplicate: boolean;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedDelivery[];
  /** The first verified, accepted (2xx) delivery of each webhook-id: what the integration acts on. */
  processed: Map<string, ReceivedDelivery>;
  readonly duplicates: number;
  readonly inFlight: number;
  readonly maxInFlight: number;
  setSecrets(...secrets: string[]): void;
  enqueue(...replies: ReceiverReply[]): void;
  setDefault(reply: ReceiverReply): void;
  reset(): void;
  close(): Promise<void>;
}

/** Verifies a delivery the way an integration would; throws WebhookVerificationError when it does not. */
export function verifyDelivery(secret: string, body: string | Buffer, headers: Record<string, string>): unknown {
  return new Webhook(secret).verify(body, headers);
}

export async function startWebhookReceiver(opts: { secrets?: string[] } = {}): Promise<WebhookReceiver> {
  let secrets = opts.secrets ?? [];
  let fallback: ReceiverReply = { status: 204 };
  const queue: ReceiverReply[] = [];
  const received: ReceivedDelivery[] = [];
  const processed = new Map<string, ReceivedDelivery>();
  const timers = new Set<NodeJS.Timeout>();
  let duplicates = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
      );
      const verifiedWith = secrets.flatMap((s, i) => {
        try {
          verifyDelivery(s, body, headers);
          return [i];
        } catch {
          return [];
        }
      });
      const reply = queue.shift() ?? fallback;
      const status = reply.status ?? 204;
      const id = headers["webhook-id"] ?? "";
      const delivery: ReceivedDelivery = {
        id,
        timestamp: headers["webhook-timestamp"] ?? "",
        signature: headers["webhook-signature"] ?? "",
        headers,
        body,
        path: req.url ?? "/",
        receivedAt: Date.now(),
        verified: verifiedWith.length > 0,
        verifiedWith,
        payload: safeParse(body),
        status,
        duplicate: processed.has(id),
      };
      received.push(delivery);
      // A real receiver acts on the event and then answers; if the answer is lost, the sender
      // tries again with the same id and the receiver recognises it.
      if (delivery.duplicate) duplicates++;
      else if (delivery.verified && status >= 200 && status < 300) processed.set(id, delivery);
      const answer = () => {
        inFlight--;
        if (res.destroyed) return;
        res.writeHead(status, { "content-type": "text/plain", ...reply.headers });
        res.end(reply.body ?? "");
      };
      if (reply.delayMs) {
        const t = setTimeout(() => {
          timers.delete(t);
          answer();
        }, reply.delayMs);
        timers.add(t);
      } else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    processed,
    get duplicates() {
      return duplicates;
    },
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    setSecrets: (...s) => {
      secrets = s;
    },
    enqueue: (...r) => void queue.push(...r),
    setDefault: (r) => {
      fallback = r;
    },
    reset() {
      received.length = 0;
      processed.clear();
      queue.length = 0;
      duplicates = 0;
      maxInFlight = inFlight;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
