import { randomBytes } from "node:crypto";
import pg from "pg";
import type { AppEvent, EventBus } from "./events.ts";

// Realtime across processes (scale-out). Each process publishes the after-commit events of its
// own bus with PostgreSQL NOTIFY, and re-emits on its bus what the others published (LISTEN), so
// a browser connected to web process A sees cells that a worker stored, and an idle worker wakes
// when a web process queues work. Re-emitted events are remembered and never published again,
// so nothing loops. NOTIFY is not durable: a process that was disconnected misses events, which
// is what the SSE hub's reset-and-refetch already handles.

export const EVENTS_CHANNEL = "cellwright_events";
const BRIDGED = new Set<AppEvent["type"]>([
  "cell.updated",
  "rows.changed",
  "row.sheet.processed",
  "structure.changed",
  "work.available",
  "finds.available",
  "webhooks.queued",
  "run.updated",
  "cells.cancelled",
  "evaluation.cancelled",
  "import.updated",
  "find.updated",
  "cell.changed",
  "schedules.changed",
]);
/** Wake-ups carry no data: one per flush is enough. */
const SIGNALS = new Set<AppEvent["type"]>([
  "work.available",
  "finds.available",
  "webhooks.queued",
  "schedules.changed",
]);
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
export const MAX_PAYLOAD_BYTES = 7_900;

interface Envelope {
  /** The publishing process: a process ignores its own messages. */
  o: string;
  e: AppEvent[];
}

export interface EventsBridge {
  origin: string;
  stop(): Promise<void>;
}

/** Splits events into NOTIFY payloads under the size limit; a long rows.changed is split by ids. */
export function packEvents(origin: string, events: AppEvent[], maxBytes = MAX_PAYLOAD_BYTES): string[] {
  const overhead = Buffer.byteLength(JSON.stringify({ o: origin, e: [] }));
  const budget = maxBytes - overhead;
  const parts: string[] = [];
  for (const e of events) {
    const json = JSON.stringify(e);
    if (Buffer.byteLength(json) <= budget) {
      parts.push(json);
      continue;
    }
    if (e.type === "cells.cancelled") {
      // A ref is under 100 bytes: chunks of 40 always fit.
      for (let i = 0; i < e.refs.length; i += 40) parts.push(JSON.stringify({ ...e, refs: e.refs.slice(i, i + 40) }));
      continue;
    }
    if (e.type !== "rows.changed") continue; // no other event type can grow this large
    let ids: string[] = [];
    const flush = () => ids.length > 0 && parts.push(JSON.stringify({ ...e, rowIds: ids }));
    const base = Buffer.byteLength(JSON.stringify({ ...e, rowIds: [] }));
    let size = base;
    for (const id of e.rowIds) {
      const add = Buffer.byteLength(JSON.stringify(id)) + 1;
      if (size + add > budget) {
        flush();
        ids = [];
        size = base;
      }
      ids.push(id);
      size += add;
    }
    flush();
  }
  const payloads: string[] = [];
  let batch: string[] = [];
  let size = 0;
  for (const p of parts) {
    const add = Buffer.byteLength(p) + 1;
    if (batch.length > 0 && size + add > budget) {
      payloads.push(`{"o":${JSON.stringify(origin)},"e":[${batch.join(",")}]}`);
      batch = [];
      size = 0;
    }
    batch.push(p);
    size += add;
  }
  if (batch.length > 0) payloads.push(`{"o":${JSON.stringify(origin)},"e":[${batch.join(",")}]}`);
  return payloads;
}

export async function startEventsBridge(
  rt: { bus: EventBus; services: { name: string; stop: () => Promise<void> }[] },
  url: string,
): Promise<EventsBridge> {
  const origin = randomBytes(6).toString("hex");
  const remote = new WeakSet<AppEvent>();
  const publisher = new pg.Pool({ connectionString: url, max: 1, application_name: "cellwright-events" });
  publisher.on("error", () => undefined);
  let outbox: AppEvent[] = [];
  let scheduled = false;
  let sending = Promise.resolve();
  let stopped = false;
  let listener: pg.Client | undefined;

  const flush = () => {
    scheduled = false;
    const events = outbox;
    outbox = [];
    const seen = new Set<string>();
    const unique = events.filter((e) => !SIGNALS.has(e.type) || (!seen.has(e.type) && seen.add(e.type)));
    const payloads = packEvents(origin, unique);
    sending = sending.then(async () => {
      for (const p of payloads) {
        await publisher.query("SELECT pg_notify($1, $2)", [EVENTS_CHANNEL, p]).catch((e: Error) => {
          if (!stopped) console.error("[cellwright] publishing events failed:", e.message);
        });
      }
    });
  };

  const off = rt.bus.on((e) => {
    if (remote.has(e) || !BRIDGED.has(e.type)) return;
    outbox.push(e);
    if (!scheduled) {
      scheduled = true;
      // One transaction's events arrive in one synchronous emit: they share a payload.
      setImmediate(flush);
    }
  });

  const receive = (payload: string | undefined) => {
    let env: Envelope;
    try {
      env = JSON.parse(payload ?? "") as Envelope;
    } catch {
      return;
    }
    if (env.o === origin || !Array.isArray(env.e)) return;
    for (const e of env.e) remote.add(e);
    rt.bus.emit(env.e);
  };

  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url, application_name: "cellwright-listen" });
    client.on("notification", (m) => m.channel === EVENTS_CHANNEL && receive(m.payload));
    const lost = () => {
      if (stopped || listener !== client) return;
      listener = undefined;
      client.end().catch(() => undefined);
      void reconnect();
    };
    client.on("error", lost);
    client.on("end", lost);
    listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (e) {
      if (listener === client) listener = undefined;
      client.end().catch(() => undefined);
      throw e;
    }
  };
  let reconnecting = false;
  const reconnect = async () => {
    if (reconnecting) return;
    reconnecting = true;
    try {
      while (!stopped && !listener) {
        await new Promise((r) => setTimeout(r, 1_000).unref());
        if (stopped) return;
        await connect().catch((e: Error) => console.error("[cellwright] events listener reconnect failed:", e.message));
      }
    } finally {
      reconnecting = false;
    }
  };
  await connect();

  const bridge: EventsBridge = {
    origin,
    async stop() {
      if (stopped) return;
      off();
      if (scheduled) flush();
      await sending;
      stopped = true;
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
      await publisher.end().catch(() => undefined);
    },
  };
  rt.services.push({ name: "events bridge", stop: () => bridge.stop() });
  return bridge;
}
