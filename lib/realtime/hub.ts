import { randomBytes } from "node:crypto";
import type { AppEvent, EventBus } from "../events.ts";

// Fans after-commit events out to the browsers watching a base. Each base keeps a bounded ring
// of recent events, so a client that reconnects with Last-Event-ID gets exactly what it missed;
// when that is no longer in memory (too old, evicted, or another server process) it is told to
// reset and refetch instead of silently missing changes.

export type LiveEventType =
  | "cell.updated"
  | "rows.changed"
  | "structure.changed"
  | "row.sheet.processed"
  | "run.updated"
  | "import.updated"
  | "find.updated"
  | "cell.changed";

/** run.updated and find.updated go out at most this often per run or find (4 a second); the last update is never dropped. */
export const RUN_UPDATE_INTERVAL_MS = 250;

export interface LiveEvent {
  /** "<epoch>.<seq>": the epoch changes with each process, so ids from before a restart reset. */
  id: string;
  seq: number;
  type: LiveEventType;
  baseId: string;
  workspaceId: string;
  data: Record<string, unknown>;
}

export interface HubOptions {
  /** Events kept per base for replay. */
  perBase?: number;
  /** Bases with a replay buffer; the least recently active is dropped first. */
  maxBases?: number;
  /** rows.changed lists at most this many ids; larger changes say "many" (rowIds: null). */
  maxRowIds?: number;
}

type Listener = (event: LiveEvent) => void;
type Throttled = Extract<AppEvent, { type: "run.updated" | "find.updated" }>;

// A run and a find have distinct id prefixes, but the key says which anyway.
const throttleKey = (e: Throttled) => (e.type === "run.updated" ? `run:${e.runId}` : `find:${e.findId}`);

export type Subscription =
  | { kind: "replay"; events: LiveEvent[]; headId: string; unsubscribe: () => void }
  | { kind: "reset"; headId: string; unsubscribe: () => void };

const FORWARDED = new Set<string>([
  "cell.updated",
  "rows.changed",
  "structure.changed",
  "row.sheet.processed",
  "run.updated",
  "import.updated",
  "find.updated",
  "cell.changed",
]);

export class RealtimeHub {
  readonly epoch = randomBytes(4).toString("hex");
  private seq = 0;
  private readonly buffers = new Map<string, LiveEvent[]>();
  /** Per base: the highest seq that fell out of its ring. */
  private readonly dropped = new Map<string, number>();
  /** The highest seq of any base whose whole buffer was evicted. */
  private evictedFloor = 0;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly perBase: number;
  private readonly maxBases: number;
  private readonly maxRowIds: number;
  private detach?: () => void;
  /** Per run or find: when its last update went out, and the trailing one waiting, if any. */
  private readonly runThrottle = new Map<string, { at: number; timer?: NodeJS.Timeout; event?: Throttled }>();

  constructor(opts: HubOptions = {}) {
    this.perBase = opts.perBase ?? 500;
    this.maxBases = opts.maxBases ?? 1_000;
    this.maxRowIds = opts.maxRowIds ?? 1_000;
  }

  attach(bus: EventBus): void {
    this.detach?.();
    this.detach = bus.on((e) => this.publish(e));
  }

  stop(): void {
    for (const t of this.runThrottle.values()) clearTimeout(t.timer);
    this.runThrottle.clear();
    this.detach?.();
    this.detach = undefined;
    this.listeners.clear();
  }

  get headId(): string {
    return `${this.epoch}.${this.seq}`;
  }

  publish(event: AppEvent): void {
    if ((event.type === "run.updated" || event.type === "find.updated") && this.throttled(event)) return;
    this.publishForwarded(event);
  }

  private publishForwarded(event: AppEvent): void {
    if (!FORWARDED.has(event.type) || !("baseId" in event)) return;
    const live: LiveEvent = {
      seq: ++this.seq,
      id: "",
      type: event.type as LiveEventType,
      baseId: event.baseId,
      workspaceId: event.workspaceId,
      data: this.payload(event),
    };
    live.id = `${this.epoch}.${live.seq}`;
    this.remember(live);
    for (const listener of this.listeners.get(live.baseId) ?? []) {
      try {
        listener(live);
      } catch (e) {
        console.error("[cellwright] live listener failed:", e);
      }
    }
  }

  /**
   * Subscribes to a base. With lastEventId, returns the missed events to replay first, or
   * "reset" when they cannot all be replayed. Workspace scoping is the caller's check on the
   * base; events are filtered by workspace here as well.
   */
  subscribe(workspaceId: string, baseId: string, lastEventId: string | null, listener: Listener): Subscription {
    const scoped: Listener = (e) => {
      if (e.workspaceId === workspaceId) listener(e);
    };
    let set = this.listeners.get(baseId);
    if (!set) this.listeners.set(baseId, (set = new Set()));
    set.add(scoped);
    const unsubscribe = () => {
      set.delete(scoped);
      if (set.size === 0 && this.listeners.get(baseId) === set) this.listeners.delete(baseId);
    };
    const headId = this.headId;
    if (lastEventId === null || lastEventId === "") return { kind: "replay", events: [], headId, unsubscribe };
    const after = this.parseId(lastEventId);
    if (after === null || !this.canReplay(baseId, after)) return { kind: "reset", headId, unsubscribe };
    const events = (this.buffers.get(baseId) ?? []).filter((e) => e.seq > after && e.workspaceId === workspaceId);
    return { kind: "replay", events, headId, unsubscribe };
  }

  /** True when the update must wait: it is sent later, as the trailing update of its window. */
  private throttled(event: Throttled): boolean {
    const now = Date.now();
    const key = throttleKey(event);
    const t = this.runThrottle.get(key);
    if (!t || now - t.at >= RUN_UPDATE_INTERVAL_MS) {
      if (t?.timer) clearTimeout(t.timer);
      this.runThrottle.set(key, { at: now });
      if (this.runThrottle.size > 10_000) this.forgetOldRuns(now);
      return false;
    }
    t.event = event;
    t.timer ??= setTimeout(
      () => {
        t.timer = undefined;
        t.at = Date.now();
        const pending = t.event;
        t.event = undefined;
        if (pending) this.publishNow(pending);
      },
      RUN_UPDATE_INTERVAL_MS - (now - t.at),
    );
    t.timer.unref?.();
    return true;
  }

  private publishNow(event: Throttled): void {
    const t = this.runThrottle.get(throttleKey(event));
    if (t) t.at = Date.now();
    this.publishForwarded(event);
  }

  private forgetOldRuns(now: number): void {
    for (const [id, t] of this.runThrottle) if (!t.timer && now - t.at > 60_000) this.runThrottle.delete(id);
  }

  listenerCount(baseId: string): number {
    return this.listeners.get(baseId)?.size ?? 0;
  }

  private parseId(id: string): number | null {
    const m = /^([0-9a-f]+)\.(\d+)$/.exec(id);
    if (!m || m[1] !== this.epoch) return null;
    const seq = Number(m[2]);
    return seq <= this.seq ? seq : null;
  }

  private canReplay(baseId: string, after: number): boolean {
    if (after >= this.seq) return true;
    if (after < (this.dropped.get(baseId) ?? 0)) return false;
    if (!this.buffers.has(baseId) && after < this.evictedFloor) return false;
    return true;
  }

  private remember(e: LiveEvent): void {
    let ring = this.buffers.get(e.baseId);
    if (ring) {
      // Re-inserting keeps the Map in least-recently-active order for eviction.
      this.buffers.delete(e.baseId);
    } else {
      ring = [];
      // This base may have had a ring that was evicted: anything up to the floor is unknown.
      if (this.evictedFloor > 0) this.dropped.set(e.baseId, this.evictedFloor);
    }
    this.buffers.set(e.baseId, ring);
    ring.push(e);
    if (ring.length > this.perBase) this.dropped.set(e.baseId, ring.shift()!.seq);
    if (this.buffers.size > this.maxBases) {
      const [oldest, events] = this.buffers.entries().next().value!;
      this.buffers.delete(oldest);
      this.dropped.delete(oldest);
      this.evictedFloor = Math.max(this.evictedFloor, events[events.length - 1]?.seq ?? 0);
    }
  }

  private payload(event: AppEvent): Record<string, unknown> {
    switch (event.type) {
      case "cell.updated":
        return { rowId: event.rowId, columnId: event.columnId, status: event.status };
      case "row.sheet.processed":
        return { rowId: event.rowId };
      case "run.updated":
        return { runId: event.runId };
      case "find.updated":
        return { findId: event.findId };
      case "cell.changed": {
        const { rowId, columnId, runId, before, after, sources, confidence, reason } = event;
        return { rowId, columnId, runId, before, after, sources, confidence, reason };
      }
      case "import.updated":
        return {
          importId: event.importId,
          status: event.status,
          linesDone: event.linesDone,
          linesTotal: event.linesTotal,
        };
      case "rows.changed": {
        const many = event.rowIds.length > this.maxRowIds;
        return { kind: event.kind, rowIds: many ? null : event.rowIds, count: event.rowIds.length };
      }
      default:
        return {};
    }
  }
}
