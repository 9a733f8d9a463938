import { randomBytes } from "node:crypto";
import type { Database } from "../../db/database.ts";
import { prepared } from "../../db/prepared.ts";
import type { HostGate, HostLimits } from "./host-gate.ts";

// The per-host limits on PostgreSQL, shared by every worker process: calls a minute through the
// host's row of rate_limit_buckets, calls in flight through host_slots (one row per slot; its
// lease frees it if its process dies).
//
// Each statement is a round trip on the thread that runs the cells, and three a call (a token, a
// slot, its release) were most of a waterfall's statements. So one statement, a round, does all
// of a host's bookkeeping: it frees the slots this process no longer needs, hands the slots of
// finished calls on to its waiting calls (renewing their lease), takes free slots for the others,
// and a token for every slot it grants. Calls that finish or arrive while a round runs are served
// by the next one, so a busy host costs less than a statement a call. A slot waits for its round,
// so rounds commit without waiting for the disk (`volatile`): a flush took 4 ms, a fifth of a
// 20 ms call. A crash of the database may then lose its last rounds: a freed slot held again until
// its lease ends, or for a moment after the restart a held one free.
//
// Handing slots on lets a busy process keep a host to itself. So a process short of slots, holding
// none or at least two fewer than another, marks one of that process's slots as wanted: its holder
// frees it instead of handing it on, and for a moment only the process that wants it may take it.

/** How long a want holds: several of the wanting process's longest waits between rounds. */
const WANT_MS = 250;
const MAX_POLL_MS = 50;

// $1 host, $2 holder, $3 bucket, $4 capacity (≤ 0: no rate), $5 tokens a second, $6 calls
// waiting, $7 concurrency, $8 lease ms, $9 this process's idle slots to hand on, in order (only
// as many as there are tokens), $10 its slots to free, $11 its slots in use.
// The slot CTEs touch disjoint rows: this holder's given slots, free ones, other holders' held ones.
const ROUND = prepared(`WITH
b AS (
  SELECT LEAST($4::float8, tokens + GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp() - updated_at)) * $5::float8) AS available
  FROM rate_limit_buckets WHERE name = $3 FOR UPDATE),
g AS (
  SELECT CASE WHEN $4::float8 <= 0 THEN $6::int ELSE coalesce((SELECT LEAST($6::int, floor(available))::int FROM b), 0) END AS n),
freed AS (
  UPDATE host_slots SET expires_at = '-infinity'
  WHERE host = $1 AND holder = $2 AND slot = ANY($10::int[])
  RETURNING slot),
renewed AS (
  UPDATE host_slots SET expires_at = CASE WHEN wanted_by <> $2 AND wanted_until > clock_timestamp() THEN '-infinity'
      ELSE clock_timestamp() + make_interval(secs => $8::float8 / 1000) END
  WHERE host = $1 AND holder = $2 AND slot = ANY(($9::int[])[:(SELECT n FROM g)]) AND expires_at > clock_timestamp()
  RETURNING slot, expires_at > clock_timestamp() AS kept),
free AS (
  SELECT s FROM generate_series(0, $7::int - 1) s
  WHERE s <> ALL($9::int[]) AND s <> ALL($10::int[]) AND NOT EXISTS (
    SELECT 1 FROM host_slots h WHERE h.host = $1 AND h.slot = s
      AND (h.expires_at > clock_timestamp() OR (h.wanted_by <> $2 AND h.wanted_until > clock_timestamp())))
  ORDER BY random()
  LIMIT GREATEST(0, (SELECT n FROM g) - (SELECT count(*) FROM renewed WHERE kept))),
taken AS (
  INSERT INTO host_slots (host, slot, holder, expires_at)
  SELECT $1, s, $2, clock_timestamp() + make_interval(secs => $8::float8 / 1000) FROM free
  ON CONFLICT (host, slot) DO UPDATE
    SET holder = excluded.holder, expires_at = excluded.expires_at, wanted_by = NULL, wanted_until = NULL
    WHERE host_slots.expires_at <= clock_timestamp()
      AND (host_slots.wanted_by IS NULL OR host_slots.wanted_by = $2 OR host_slots.wanted_until <= clock_timestamp())
  RETURNING slot),
granted AS (SELECT slot FROM renewed WHERE kept UNION ALL SELECT slot FROM taken),
spent AS (
  UPDATE rate_limit_buckets r SET tokens = b.available - (SELECT count(*) FROM granted), updated_at = clock_timestamp()
  FROM b WHERE r.name = $3 AND $4::float8 > 0 AND EXISTS (SELECT 1 FROM granted)
  RETURNING 1),
marked AS (
  UPDATE host_slots SET wanted_by = $2, wanted_until = clock_timestamp() + make_interval(secs => ${WANT_MS / 1000})
  WHERE host = $1 AND (SELECT count(*) FROM granted) < (SELECT n FROM g) AND slot = (
    SELECT h.slot FROM host_slots h
    WHERE h.host = $1 AND h.holder <> $2 AND h.slot < $7::int AND h.expires_at > clock_timestamp()
      AND (h.wanted_by IS NULL OR h.wanted_by = $2 OR h.wanted_until <= clock_timestamp())
      AND ($11::int + (SELECT count(*) FROM granted) = 0 OR $11::int + (SELECT count(*) FROM granted) + 1 < (
        SELECT count(*) FROM host_slots o WHERE o.host = $1 AND o.holder = h.holder AND o.expires_at > clock_timestamp()))
    ORDER BY h.wanted_by = $2 DESC NULLS LAST, h.expires_at
    LIMIT 1)
  RETURNING slot)
SELECT ARRAY(SELECT slot FROM granted) AS granted, (SELECT n FROM g) AS n, (SELECT available FROM b)::float8 AS available`);

interface Waiter {
  /** Waiters with the same limits are served by one round. */
  key: string;
  limits: HostLimits;
  resolve(leave: () => Promise<void>): void;
  reject(e: unknown): void;
}

interface HostState {
  waiters: Waiter[];
  /** Slots held by calls in flight. */
  busy: Set<number>;
  /** Slots still held whose calls are over, and since when: handed on, or freed after GRACE_MS. */
  idle: { slot: number; since: number }[];
  running: boolean;
  /** A call ended or a timer fired while a round ran: look again before resting. */
  kicked: boolean;
  timer?: NodeJS.Timeout;
  /** The timer is a wait for tokens or for other processes' slots, which a new call joins. */
  holdingOff: "tokens" | "slots" | undefined;
  pollMs: number;
}

/**
 * How long a slot whose call is over stays with its process for a call that may come: taking it
 * back then is one round instead of two (one to free it, one to take one).
 */
const GRACE_MS = 25;

/** The limits shared by the processes of one PostgreSQL; `owner` names this process's slots. */
export function sharedHostGate(db: Pick<Database, "volatile">, owner: string): HostGate {
  // Unique to this gate: a renewal names its holder, so two gates must never share one (the
  // column editor's previews and the engine may both name their process the same way).
  const holder = `${owner}:${randomBytes(3).toString("hex")}`;
  const hosts = new Map<string, HostState>();
  const buckets = new Set<string>();
  let closing = false;

  const kick = (host: string, h: HostState, byNewCall = false) => {
    if (byNewCall && h.holdingOff) return;
    clearTimeout(h.timer);
    h.timer = undefined;
    h.holdingOff = undefined;
    if (h.running) h.kicked = true;
    else {
      h.running = true;
      setImmediate(() => void rounds(host, h));
    }
  };

  const leaveFor = (host: string, h: HostState, slot: number) => {
    let left = false;
    return async () => {
      if (left) return;
      left = true;
      h.busy.delete(slot);
      h.idle.push({ slot, since: performance.now() });
      // Short of tokens, the timer's round hands it on or frees it; else the waiting call gets it now.
      if (h.holdingOff !== "tokens") kick(host, h);
    };
  };

  /** Rounds until nothing can move without a call ending, a call arriving or a wait. */
  const rounds = async (host: string, h: HostState) => {
    h.running = true;
    let wait: number | undefined;
    let waitFor: HostState["holdingOff"];
    try {
      for (;;) {
        h.kicked = false;
        const head = h.waiters[0];
        const limits = head?.limits;
        let want = 0;
        let keep: number[] = [];
        if (head && limits) {
          let batch = 0;
          while (batch < h.waiters.length && h.waiters[batch].key === head.key) batch++;
          let inUse = 0;
          for (const s of h.busy) if (s < limits.concurrency) inUse++;
          want = Math.max(0, Math.min(batch, limits.concurrency - inUse));
          keep = h.idle
            .filter((i) => i.slot < limits.concurrency)
            .slice(0, want)
            .map((i) => i.slot);
        }
        const due = performance.now() - GRACE_MS;
        const release = h.idle.filter((i) => !keep.includes(i.slot) && (closing || i.since <= due)).map((i) => i.slot);
        if (want === 0 && release.length === 0) break;
        h.idle = h.idle.filter((i) => !keep.includes(i.slot) && !release.includes(i.slot));
        const perMinute = want > 0 ? (limits?.perMinute ?? 0) : 0;
        const bucket = perMinute > 0 ? `host:${host}` : "";
        let res: { granted: number[]; n: number; available: number | null };
        try {
          if (bucket && !buckets.has(bucket)) await createBucket(db, bucket, perMinute);
          buckets.add(bucket);
          [res] = await db.volatile<typeof res>(ROUND, [
            host,
            holder,
            bucket,
            perMinute > 0 ? Math.max(1, Math.floor(perMinute / 10)) : 0,
            perMinute / 60,
            want,
            limits?.concurrency ?? 0,
            limits?.leaseMs ?? 0,
            keep,
            release,
            h.busy.size,
          ]);
        } catch (e) {
          // The slots of this round are left to their leases.
          for (const w of h.waiters.splice(0)) w.reject(e);
          continue;
        }
        const now = performance.now();
        // Slots past the tokens were left as they are.
        for (const slot of keep.slice(res.n)) h.idle.push({ slot, since: now });
        for (const slot of res.granted) {
          const w = h.waiters[0];
          if (w && w.key === head?.key) {
            h.waiters.shift();
            h.busy.add(slot);
            w.resolve(leaveFor(host, h, slot));
          } else h.idle.push({ slot, since: now }); // its call gave up waiting
        }
        if (res.granted.length > 0) h.pollMs = 5;
        if (bucket && res.available === null) buckets.delete(bucket);
        const tokensShort = res.n < want;
        const slotsShort = res.granted.length < res.n;
        if (!tokensShort && !slotsShort) continue;
        if (tokensShort && limits) {
          const left = (res.available ?? 0) - res.granted.length;
          wait = Math.max(5, Math.ceil(((1 - left) / (perMinute / 60)) * 1000));
          waitFor = "tokens";
        }
        // Slots held by other processes (or a race lost to one) are asked for again; when this
        // process holds them all, the end of one of its calls starts the next round.
        if (slotsShort && limits && h.busy.size < limits.concurrency) {
          wait = Math.max(wait ?? 0, h.pollMs);
          waitFor ??= "slots";
          h.pollMs = Math.min(h.pollMs * 2, MAX_POLL_MS);
        }
        if (!h.kicked) break;
        wait = waitFor = undefined;
      }
    } finally {
      h.running = false;
    }
    const firstDue =
      h.idle.length > 0 ? Math.min(...h.idle.map((i) => i.since)) + GRACE_MS - performance.now() : undefined;
    const next = Math.min(wait ?? Infinity, firstDue ?? Infinity);
    if (next === Infinity) return;
    h.holdingOff = waitFor;
    h.timer = setTimeout(() => kick(host, h), Math.max(0, next) + (wait !== undefined ? Math.random() * 5 : 0));
  };

  return {
    enter(host, limits, signal) {
      signal?.throwIfAborted();
      let h = hosts.get(host);
      if (!h) {
        h = { waiters: [], busy: new Set(), idle: [], running: false, kicked: false, holdingOff: undefined, pollMs: 5 };
        hosts.set(host, h);
      }
      const state = h;
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const i = state.waiters.indexOf(waiter);
          if (i >= 0) state.waiters.splice(i, 1);
          reject(signal!.reason);
        };
        const waiter: Waiter = {
          key: `${limits.perMinute}/${limits.concurrency}/${limits.leaseMs}`,
          limits,
          resolve: (leave) => (signal?.removeEventListener("abort", onAbort), resolve(leave)),
          reject: (e) => (signal?.removeEventListener("abort", onAbort), reject(e)),
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        state.waiters.push(waiter);
        kick(host, state, true);
      });
    },
    async close() {
      // Slots kept for a call that will not come now are freed at once, not left to their leases.
      closing = true;
      for (const [host, h] of hosts) {
        clearTimeout(h.timer);
        while (h.running) await new Promise((r) => setTimeout(r, 5));
        if (h.idle.length > 0) await rounds(host, h);
      }
    },
  };
}

function createBucket(db: Pick<Database, "volatile">, name: string, perMinute: number) {
  return db.volatile(
    `INSERT INTO rate_limit_buckets (name, tokens, updated_at) VALUES ($1, $2, clock_timestamp()) ON CONFLICT (name) DO NOTHING`,
    [name, Math.max(1, Math.floor(perMinute / 10))],
  );
}
