import type { LiveEvent, RealtimeHub } from "./hub.ts";

// Server-Sent Events framing for one browser watching one base.

export interface EventStreamOptions {
  workspaceId: string;
  baseId: string;
  lastEventId: string | null;
  /** A comment line this often keeps proxies from closing an idle connection. */
  heartbeatMs?: number;
  /** The client's reconnect delay, sent as the SSE retry field. */
  retryMs?: number;
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
  /** A client this far behind is dropped; it reconnects and catches up by replay or reset. */
  maxQueuedChunks?: number;
  /** Asked every `authCheckMs`: once the credentials are revoked, the stream ends. */
  stillAuthorized?: () => Promise<boolean>;
  authCheckMs?: number;
  /** Called once when the stream ends, however it ends. */
  onClose?: () => void;
}

export function formatEvent(type: string, data: unknown, id?: string): string {
  return `${id ? `id: ${id}\n` : ""}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

const frame = (e: LiveEvent) => formatEvent(e.type, { ...e.data, type: e.type }, e.id);

export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  // no-transform keeps compression middleware from buffering the stream.
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};

/**
 * Opens the stream: retry hint, then the missed events (or a reset), then a `ready` event that
 * carries the current position, then live events and heartbeats until the client leaves.
 */
export function openEventStream(hub: RealtimeHub, opts: EventStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const maxQueued = opts.maxQueuedChunks ?? 5_000;
  let cleanup = () => {};

  return new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (text: string) => {
        if (closed) return;
        if ((controller.desiredSize ?? 0) < -maxQueued) return close();
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };
      const sub = hub.subscribe(opts.workspaceId, opts.baseId, opts.lastEventId, (e) => send(frame(e)));
      const heartbeat = setInterval(() => send(`: ping\n\n`), opts.heartbeatMs ?? 15_000);
      // A stream outlives no revocation: the key is checked again every few seconds.
      const authCheck = opts.stillAuthorized
        ? setInterval(() => {
            void opts.stillAuthorized!().then(
              (ok) => {
                if (ok) return;
                send(formatEvent("revoked", { type: "revoked", reason: "The API key of this stream was revoked." }));
                close();
              },
              () => undefined,
            );
          }, opts.authCheckMs ?? 2_000)
        : undefined;
      const onAbort = () => close();
      function close() {
        if (closed) return;
        closed = true;
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed by the consumer
        }
      }
      cleanup = () => {
        clearInterval(heartbeat);
        clearInterval(authCheck);
        opts.onClose?.();
        sub.unsubscribe();
        opts.signal?.removeEventListener("abort", onAbort);
      };
      opts.signal?.addEventListener("abort", onAbort);

      send(`retry: ${opts.retryMs ?? 3_000}\n\n`);
      if (sub.kind === "reset") {
        send(
          formatEvent(
            "reset",
            { type: "reset", reason: "The missed events are no longer available; refetch." },
            sub.headId,
          ),
        );
      } else {
        for (const e of sub.events) send(frame(e));
      }
      send(
        formatEvent(
          "ready",
          { type: "ready", baseId: opts.baseId },
          sub.kind === "replay" && sub.events.length > 0 ? sub.events[sub.events.length - 1].id : sub.headId,
        ),
      );
      if (opts.signal?.aborted) close();
    },
    cancel() {
      cleanup();
    },
  });
}
