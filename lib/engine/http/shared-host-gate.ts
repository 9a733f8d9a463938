import { randomBytes } from "node:crypto";
import type { Database } from "../../db/database.ts";
import type { HostGate } from "./host-gate.ts";
import { createBucket, hostRound, type RoundResult } from "./host-round.ts";
import {
  GRACE_MS,
  keepStock,
  type HostState,
  LEASE_CALLS,
  newHostState,
  noteCall,
  STOCK_MS,
  stockRunningLow,
  stockTarget,
  tokenFor,
  type Waiter,
} from "./host-state.ts";

// The per-host limits on PostgreSQL, shared by every worker process: calls a minute through the
// host's row of rate_limit_buckets, calls in flight through host_slots (one row per slot; its
// lease frees it if its process dies).
//
// Each statement is a round trip on the thread that runs the cells, and three a call (a token, a
// slot, its release) were most of a waterfall's statements. So one statement, a round
// (host-round.ts), does all of a host's bookkeeping: it frees the slots this process no longer
// needs, hands the slots of finished calls on to its waiting calls, takes free slots for the
// others, a token for every slot it grants, and a stock of tokens for the calls to come.
//
// Between rounds, a call that ends hands its slot straight to the next waiting call, and a call
// that finds no one ahead takes a slot its process still holds idle, each with a token of stock:
// no statement at all. A round comes when the stock runs under half of what the host's calls of
// the last STOCK_MS used, when a slot's lease is too short for the call it is handed to (a lease
// runs LEASE_CALLS times a call's longest, so that is rare), when slots are to be freed, or when
// calls wait with no slot. Stock is kept at most twice what it should be (stockTarget): a burst
// may exceed the bucket's by that much at most. Rounds commit without waiting for the disk (`volatile`: a
// flush took 4 ms, a fifth of a 20 ms call). A crash of the database may then lose its last
// rounds: a freed slot held again until its lease ends, or, for a moment after the restart, a
// held one free.
//
// Handing slots on lets a busy process keep a host to itself. So a process short of slots, holding
// none or at least two fewer than another, marks one of that process's slots as wanted: its holder
// frees it instead of handing it on, and for a moment only the process that wants it may take it.

const MAX_POLL_MS = 50;

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
      // A turn of the event loop first, for the calls that end together to share the round.
      h.running = true;
      setImmediate(() => void rounds(host, h));
    }
  };

  const leaveFor = (host: string, h: HostState, slot: number) => {
    let left = false;
    return async () => {
      if (left) return;
      left = true;
      const next = h.waiters[0];
      if (next && slot < next.limits.concurrency && !h.wanted.has(slot) && !closing && tokenFor(h, next.limits)) {
        h.waiters.shift();
        const short = (h.leaseEnds.get(slot) ?? 0) - performance.now() < next.limits.leaseMs;
        if (short) h.extend.set(slot, next.limits.leaseMs);
        noteCall(h);
        next.resolve(leaveFor(host, h, slot));
        // No statement at all, unless the lease or the stock is running out.
        if (short || stockRunningLow(h)) kick(host, h);
        return;
      }
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
          h.perMinute = limits.perMinute;
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
        const started = performance.now();
        const release = h.idle
          .filter((i) => !keep.includes(i.slot) && (closing || h.wanted.has(i.slot) || i.since <= started - GRACE_MS))
          .map((i) => i.slot);
        // A slot handed on whose new call is over already is kept or freed instead.
        const extend = [...h.extend].filter(([s]) => h.busy.has(s));
        // Stock for the calls until the next round; what is no longer needed is given back now, and
        // what is, however old, counts as taken now: given back and taken again, it would come to
        // the same. It is topped up once under half, so a busy host costs a round every few calls.
        const target = closing ? 0 : stockTarget(h, want, h.idle.length - keep.length - release.length);
        const fresh = keepStock(h, target, started);
        const stock = Math.max(0, target - fresh);
        const restock = stock > 0 && fresh * 2 < target;
        const returned = h.returning;
        if (want === 0 && release.length === 0 && extend.length === 0 && returned === 0 && !restock) break;
        h.idle = h.idle.filter((i) => !keep.includes(i.slot) && !release.includes(i.slot));
        h.extend.clear();
        h.returning = 0;
        // A round that only frees or renews slots leaves the bucket alone.
        const bucket = h.perMinute > 0 && want + stock + returned > 0 ? `host:${host}` : "";
        const capacity = Math.max(1, Math.floor(h.perMinute / 10));
        let res: RoundResult;
        try {
          if (bucket && !buckets.has(bucket)) await createBucket(db, bucket, capacity);
          buckets.add(bucket);
          res = await hostRound(db, {
            host,
            holder,
            bucket,
            capacity: bucket ? capacity : 0,
            perSecond: h.perMinute / 60,
            want,
            concurrency: limits?.concurrency ?? 0,
            leaseMs: (limits?.leaseMs ?? 0) * LEASE_CALLS,
            keep,
            release,
            extend: extend.map(([s]) => s),
            extendMs: extend.map(([, ms]) => ms * LEASE_CALLS),
            inUse: h.busy.size,
            stock,
            returned,
          });
        } catch (e) {
          // The slots of this round are left to their leases, its tokens to the bucket's refill.
          for (const w of h.waiters.splice(0)) w.reject(e);
          continue;
        }
        if (res.stock > 0) h.stock.push({ n: res.stock, at: started });
        h.wanted = new Set(res.wanted);
        for (const [slot, ms] of extend) h.leaseEnds.set(slot, started + ms * LEASE_CALLS);
        // Slots past the tokens were left as they are.
        for (const slot of keep.slice(res.n)) h.idle.push({ slot, since: started });
        for (const slot of res.granted) {
          const w = h.waiters[0];
          if (w && w.key === head?.key) {
            h.waiters.shift();
            h.busy.add(slot);
            noteCall(h);
            w.resolve(leaveFor(host, h, slot));
          } else h.idle.push({ slot, since: started }); // its call gave up waiting
          h.leaseEnds.set(slot, started + limits!.leaseMs * LEASE_CALLS);
        }
        if (res.granted.length > 0) h.pollMs = 5;
        if (bucket && res.available === null) buckets.delete(bucket);
        // A bucket too low for the stock asked is waited for as one too low for the calls.
        const tokensShort = res.n < want || (restock && (fresh + res.stock) * 2 < target);
        const slotsShort = res.granted.length < res.n;
        if (!tokensShort && !slotsShort) continue;
        if (tokensShort && limits) {
          const left = (res.available ?? 0) - res.granted.length;
          wait = Math.max(5, Math.ceil(((1 - left) / (limits.perMinute / 60)) * 1000));
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
    // Idle slots are freed, and stock given back, when they are due.
    const now = performance.now();
    const dues = [...h.idle.map((i) => i.since + GRACE_MS), ...h.stock.map((s) => s.at + STOCK_MS)];
    const next = Math.min(wait ?? Infinity, ...dues.map((d) => d - now));
    if (next === Infinity) return;
    h.holdingOff = waitFor;
    h.timer = setTimeout(() => kick(host, h), Math.max(0, next) + (wait !== undefined ? Math.random() * 5 : 1));
  };

  return {
    enter(host, limits, signal) {
      signal?.throwIfAborted();
      let h = hosts.get(host);
      if (!h) hosts.set(host, (h = newHostState(limits.perMinute)));
      const state = h;
      // With no call ahead, an idle slot whose lease fits the call is taken at once, with a token
      // of stock: a host called steadily but never queued for costs no round a call.
      const now = performance.now();
      const idle =
        state.waiters.length === 0 && !closing
          ? state.idle.findIndex(
              (i) =>
                i.slot < limits.concurrency &&
                !state.wanted.has(i.slot) &&
                (state.leaseEnds.get(i.slot) ?? 0) - now >= limits.leaseMs,
            )
          : -1;
      if (idle >= 0 && tokenFor(state, limits)) {
        const [{ slot }] = state.idle.splice(idle, 1);
        state.busy.add(slot);
        noteCall(state, now);
        if (stockRunningLow(state)) kick(host, state);
        return Promise.resolve(leaveFor(host, state, slot));
      }
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
      // Slots kept for a call that will not come, and stock, are given back at once.
      closing = true;
      for (const [host, h] of hosts) {
        clearTimeout(h.timer);
        while (h.running) await new Promise((r) => setTimeout(r, 5));
        await rounds(host, h);
      }
    },
  };
}
