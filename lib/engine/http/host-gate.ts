import type { Tx } from "../../db/database.ts";
import { perKeyTokenBuckets, type RateLimiter } from "../rate-limit.ts";
import { sharedTokenBuckets } from "../shared-rate-limit.ts";

// The per-host limits of HTTP columns: calls a minute and calls in flight. On the embedded
// database one process does all the work, so both are kept in memory; on PostgreSQL every worker
// process shares them, through rate_limit_buckets (calls a minute) and host_slots (in flight).

export interface HostLimits {
  perMinute: number;
  concurrency: number;
  /** How long a slot is held at most: a process that dies holding one frees it after this. */
  leaseMs: number;
}

export interface HostGate {
  /** Waits for a token and a free slot of the host; call the returned function when the call is over. */
  enter(host: string, limits: HostLimits, signal?: AbortSignal): Promise<() => Promise<void>>;
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

/** The limits shared by the processes of one PostgreSQL; `owner` names this process's slots. */
export function sharedHostGate(db: Tx, owner: string): HostGate {
  const rates = ratesByPerMinute((perMinute) => sharedTokenBuckets(db, perMinute, "host"));
  // Waiters of this process take turns before asking the database, so a busy host costs one
  // statement per freed slot rather than one per waiter per poll.
  const local = localHostGate();
  return {
    async enter(host, limits, signal) {
      await rates(limits.perMinute).acquire(host, signal);
      const leaveLocal = await local.enter(host, { ...limits, perMinute: 0 }, signal);
      try {
        const slot = await takeSlot(db, host, owner, limits, signal);
        // The slot is freed in the database before the next waiter of this process is let in: the
        // other way round, that waiter found every slot still held and slept before asking again.
        return async () => {
          try {
            await db.$executeRawUnsafe(
              `UPDATE host_slots SET expires_at = '-infinity' WHERE host = $1 AND slot = $2 AND holder = $3`,
              host,
              slot,
              owner,
            );
          } finally {
            await leaveLocal();
          }
        };
      } catch (e) {
        await leaveLocal();
        throw e;
      }
    },
  };
}

async function takeSlot(db: Tx, host: string, owner: string, limits: HostLimits, signal?: AbortSignal) {
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    signal?.throwIfAborted();
    // The first slot free or expired is taken; two processes racing for it serialise on its row,
    // and the loser's WHERE no longer holds once the winner commits.
    const rows = await db.$queryRawUnsafe<{ slot: number }[]>(
      `WITH free AS (
         SELECT s FROM generate_series(0, $3::int - 1) s
         WHERE NOT EXISTS (SELECT 1 FROM host_slots h WHERE h.host = $1 AND h.slot = s AND h.expires_at > clock_timestamp())
         ORDER BY random() LIMIT 1)
       INSERT INTO host_slots (host, slot, holder, expires_at)
       SELECT $1, s, $2, clock_timestamp() + make_interval(secs => $4::float8 / 1000) FROM free
       ON CONFLICT (host, slot) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
         WHERE host_slots.expires_at <= clock_timestamp()
       RETURNING slot`,
      host,
      owner,
      limits.concurrency,
      limits.leaseMs,
    );
    if (rows[0]) return rows[0].slot;
    await new Promise((r) => setTimeout(r, wait + Math.floor(Math.random() * 5)));
  }
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
