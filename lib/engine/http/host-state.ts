import type { HostLimits } from "./host-gate.ts";

// What the shared host gate (shared-host-gate.ts) knows of one host in this process: the calls
// waiting, the slots it holds, and the tokens it has in stock.

/**
 * How long a slot whose call is over stays with its process for a call that may come: taking it
 * back then is one round instead of two (one to free it, one to take one).
 */
export const GRACE_MS = 25;
/** Stock is used within this long of its taking, else given back. */
export const STOCK_MS = 100;

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
  /** Slots handed on since the last round, and the lease their new call asks for. */
  extend: Map<number, number>;
  /** Tokens in stock, by when they were taken; and tokens to give back. */
  stock: { n: number; at: number }[];
  returning: number;
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

/** A token for a call handed a slot without a round: none needed without a rate, else one of stock. */
export const tokenFor = (h: HostState, limits: HostLimits) =>
  limits.perMinute <= 0 || (freshStock(h) > 0 && takeStock(h, 1) === 1);

export function newHostState(perMinute: number): HostState {
  return {
    waiters: [],
    busy: new Set(),
    idle: [],
    extend: new Map(),
    stock: [],
    returning: 0,
    wanted: new Set(),
    perMinute,
    running: false,
    kicked: false,
    holdingOff: undefined,
    pollMs: 5,
  };
}
