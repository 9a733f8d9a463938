import { perKeyTokenBuckets, type RateLimiter } from "../rate-limit.ts";

// The per-host limits of HTTP columns: calls a minute and calls in flight. On the embedded
// database one process does all the work, so both are kept in memory here; on PostgreSQL every
// worker process shares them (shared-host-gate.ts).

export interface HostLimits {
  perMinute: number;
  concurrency: number;
  /**
   * How long a call holds a slot at most. A process that dies holding one frees it once its lease
   * ends, at most 1.5 times this after its last renewal (LEASE_CALLS in host-state.ts).
   */
  leaseMs: number;
}

export interface HostGate {
  /** Waits for a token and a free slot of the host; call the returned function when the call is over. */
  enter(host: string, limits: HostLimits, signal?: AbortSignal): Promise<() => Promise<void>>;
  /** Gives up what it holds for calls to come (the runtime is stopping, its calls are over). */
  close?(): Promise<void>;
}

export function localHostGate(): HostGate {
  const rates = ratesByPerMinute((perMinute) => perKeyTokenBuckets(perMinute));
  const slots = new Map<string, { active: number; waiting: (() => void)[] }>();
  return {
    async enter(host, limits, signal) {
      await rates(limits.perMinute).acquire(host, signal);
      let s = slots.get(host);
      if (!s) slots.set(host, (s = { active: 0, waiting: [] }));
      const state = s;
      while (state.active >= limits.concurrency) {
        await new Promise<void>((resolve, reject) => {
          const wake = () => (signal?.removeEventListener("abort", onAbort), resolve());
          const onAbort = () => {
            state.waiting.splice(state.waiting.indexOf(wake), 1);
            reject(signal!.reason);
          };
          signal?.addEventListener("abort", onAbort, { once: true });
          state.waiting.push(wake);
        });
      }
      state.active++;
      return async () => {
        state.active--;
        state.waiting.shift()?.();
      };
    },
  };
}

/** One limiter per rate: columns calling the same host may set different rates. */
function ratesByPerMinute(make: (perMinute: number) => RateLimiter) {
  const byRate = new Map<number, RateLimiter>();
  return (perMinute: number) => {
    let limiter = byRate.get(perMinute);
    if (!limiter) byRate.set(perMinute, (limiter = make(perMinute)));
    return limiter;
  };
}
