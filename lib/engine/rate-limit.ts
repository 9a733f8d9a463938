/**
 * Rate limits per provider: `acquire(key)` waits for a token of that key's bucket. The port lets
 * scale-out swap in buckets shared by every worker.
 */
export interface RateLimiter {
  acquire(key: string, signal?: AbortSignal): Promise<void>;
}

interface Bucket {
  acquire(signal?: AbortSignal): Promise<void>;
}

const unlimitedBucket: Bucket = { acquire: async () => undefined };

/** One in-process token bucket per key (provider), each `perMinute` calls a minute. */
export function perKeyTokenBuckets(perMinute: number, now = () => Date.now()): RateLimiter {
  const buckets = new Map<string, Bucket>();
  return {
    acquire(key, signal) {
      let bucket = buckets.get(key);
      if (!bucket) buckets.set(key, (bucket = tokenBucket(perMinute, now)));
      return bucket.acquire(signal);
    },
  };
}

/** A token bucket: `perMinute` calls a minute with bursts up to a tenth of that. */
export function tokenBucket(perMinute: number, now = () => Date.now()): Bucket {
  if (perMinute <= 0) return unlimitedBucket;
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
