/**
 * A token bucket: `perMinute` calls a minute with bursts up to a tenth of that. The port lets
 * scale-out swap in a bucket shared by every worker.
 */
export interface RateLimiter {
  acquire(signal?: AbortSignal): Promise<void>;
}

export const unlimited: RateLimiter = { acquire: async () => undefined };

export function tokenBucket(perMinute: number, now = () => Date.now()): RateLimiter {
  if (perMinute <= 0) return unlimited;
  const capacity = Math.max(1, Math.floor(perMinute / 10));
  const perMs = perMinute / 60_000;
  let tokens = capacity;
  let last = now();
  let chain = Promise.resolve();

  const take = async (signal?: AbortSignal) => {
    for (;;) {
      const t = now();
      tokens = Math.min(capacity, tokens + (t - last) * perMs);
      last = t;
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      const wait = Math.ceil((1 - tokens) / perMs);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, wait);
        signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
      });
    }
  };
  // Callers queue in order so that a burst is served first come, first served.
  return {
    acquire(signal) {
      const next = chain.then(() => take(signal));
      chain = next.catch(() => undefined);
      return next;
    },
  };
}
