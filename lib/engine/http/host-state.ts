import type { HostLimits } from "./host-gate.ts";

// What the shared host gate (shared-host-gate.ts) knows of one host in this process: the calls
// waiting, the slots it holds, and the tokens it has in stock.

/**
 * How long a slot whose call is over stays with its process for a call that may come: taking it
 * back then is one round instead of two (one to free it, one to take one).
 */
export const GRACE_MS = 25;
/** Stock is used within this long of the round that took or kept it, else given back. */
export const STOCK_MS = 100;
/**
 * A slot's lease runs this many times the longest a call may hold it, so that the next calls
 * handed the slot fit in it with no renewal: one is due only once less than a call's longest is
 * left. A process that dies frees its slots within that much of its last renewal.
 */
export const LEASE_CALLS = 1.5;

export interface Waiter {
  /** Waiters with the same limits are served by one round. */
  key: string;
  limits: HostLimits;
  resolve(leave: () => Promise<void>): void;
  reject(e: unknown): void;
}

export interface HostState {
  waiters: Waiter[];
  /** Slots held by calls in flight. */
  busy: Set<number>;
  /** Slots still held whose calls are over, and since when: handed on, or freed after GRACE_MS. */
  idle: { slot: number; since: number }[];
  /** Slots handed on since the last round whose lease is too short for their new call, and its lease. */
  extend: Map<number, number>;
  /** When the lease on each slot held ends, as of the round that set it (the database's starts later). */
  leaseEnds: Map<number, number>;
  /** Tokens in stock, by when they were taken; and tokens to give back. */
  stock: { n: number; at: number }[];
  returning: number;
  /** When the calls of the last STOCK_MS were given their slot. */
  calls: number[];
  /** Slots another process wants, as the last round saw. */
  wanted: Set<number>;
  perMinute: number;
  running: boolean;
  /** A call ended or a timer fired while a round ran: look again before resting. */
  kicked: boolean;
  timer?: NodeJS.Timeout;
  /** The timer is a wait for tokens or for other processes' slots, which a new call joins. */
  holdingOff: "tokens" | "slots" | undefined;
  pollMs: number;
}

/** Stock taken before `now - STOCK_MS` is given back at the next round; answers what is left. */
export function freshStock(h: HostState, now = performance.now()): number {
  while (h.stock.length > 0 && now - h.stock[0].at > STOCK_MS) h.returning += h.stock.shift()!.n;
  return h.stock.reduce((n, s) => n + s.n, 0);
}

/**
 * Gives back the stock beyond twice `target` (so that a rate that wavers does not give back and
 * take again by turns) and dates the rest `now`; answers what is kept.
 */
export function keepStock(h: HostState, target: number, now: number): number {
  const held = h.stock.reduce((n, s) => n + s.n, 0);
  const kept = Math.min(held, 2 * target);
  h.returning += held - kept;
  h.stock = kept > 0 ? [{ n: kept, at: now }] : [];
  return kept;
}

/** Takes up to `n` tokens of stock, the oldest first; answers how many it took. */
export function takeStock(h: HostState, n: number): number {
  let taken = 0;
  while (taken < n && h.stock.length > 0) {
    const k = Math.min(n - taken, h.stock[0].n);
    taken += k;
    if ((h.stock[0].n -= k) === 0) h.stock.shift();
  }
  return taken;
}

/** Notes a call given a slot, for the host's recent rate. */
export function noteCall(h: HostState, now = performance.now()) {
  h.calls.push(now);
  while (h.calls[0] < now - STOCK_MS) h.calls.shift();
}

/**
 * Tokens worth keeping in stock: those the calls of the last STOCK_MS used, or more if more calls
 * may be handed a slot, or given an idle one, before the next round. None once the host has no
 * call in flight, waiting or likely (an idle slot).
 */
export function stockTarget(h: HostState, want: number, idle = h.idle.length, now = performance.now()) {
  if (h.busy.size + want + idle === 0) return 0;
  while (h.calls.length > 0 && h.calls[0] < now - STOCK_MS) h.calls.shift();
  return Math.max(h.calls.length, Math.min(h.waiters.length - want + idle, 2 * (h.busy.size + want)));
}

/** The stock is under half what it should be: worth a round of its own. */
export const stockRunningLow = (h: HostState) => h.perMinute > 0 && freshStock(h) * 2 < stockTarget(h, 0);

/** A token for a call handed a slot without a round: none needed without a rate, else one of stock. */
export const tokenFor = (h: HostState, limits: HostLimits) =>
  limits.perMinute <= 0 || (freshStock(h) > 0 && takeStock(h, 1) === 1);

export function newHostState(perMinute: number): HostState {
  return {
    waiters: [],
    busy: new Set(),
    idle: [],
    extend: new Map(),
    leaseEnds: new Map(),
    stock: [],
    returning: 0,
    calls: [],
    wanted: new Set(),
    perMinute,
    running: false,
    kicked: false,
    holdingOff: undefined,
    pollMs: 5,
  };
}
