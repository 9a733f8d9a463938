import type { Prisma } from "../db/database.ts";
import { renewLeases } from "../domain/cells/index.ts";
import type { CallPermits } from "./call-permits.ts";
import { createClaimLoop } from "./claim-loop.ts";
import { newQueueOwner } from "./db-cell-queue.ts";
import { claimJobs, releaseToQueue } from "./pgboss-claim.ts";
import { reconcile } from "./pgboss-reconciler.ts";
import type { CellJobs } from "./pgboss-jobs.ts";
import type { CellQueue } from "./types.ts";
import { createWorkerSlots } from "./worker-slots.ts";

export interface PgBossQueueOptions {
  /** Cells this process runs at once, from its model call until its value is stored. */
  concurrency: number;
  /** This worker's share of AI_CONCURRENCY, the model calls in flight across every worker. */
  permits: CallPermits;
  leaseMs: number;
  /** Attempts after which a cell whose worker keeps dying ends in error. */
  maxAttempts: number;
  /** How often to look for jobs when nothing woke the queue (default 1000 ms). */
  pollMs?: number;
  /** How often to reclaim dead workers' cells and requeue orphans (default leaseMs / 2). */
  reconcileMs?: number;
}

const MAX_TIMED_CLAIMS = 100_000;

/** "N cells in M claims, claim p50 X ms p99 Y ms": bench:scale reads it from each worker. */
export function claimSummary(cells: number, ms: readonly number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))].toFixed(1);
  return `${cells} cells in ${ms.length} claims, claim p50 ${at(0.5)} ms p99 ${at(0.99)} ms`;
}

/**
 * The scale-out queue: pg-boss jobs deliver cells to workers, and the cells table keeps its role
 * as the record of work. A worker starts a model call only on a call permit (see call-permits.ts)
 * and keeps a buffer of claimed cells, up to its permits ahead, so that the next call starts the
 * moment one answers rather than after a claim round trip. `announce` tells other processes that
 * new jobs exist (it emits work.available, which the events bridge forwards).
 */
export function createPgBossCellQueue(
  prisma: Prisma,
  jobs: CellJobs,
  opts: PgBossQueueOptions,
  announce: () => void,
): CellQueue {
  const owner = newQueueOwner();
  // Claimed but not yet started: enough to cover a claim round trip on a busy database, and
  // claims of about a slot count each: a claim costs its round trips and statements whatever its
  // size, so claiming a few cells at a time made the claims a large share of a cell's CPU.
  const capacity = opts.concurrency * 3;
  const ahead = 3;
  const lowWater = Math.max(1, Math.ceil(opts.concurrency / 2));
  const followRows = new Set<string>();
  const follow = (rowIds: readonly string[]) => {
    for (const id of rowIds) followRows.add(id);
    // A flush is a statement whatever its rows: gathered for 100 ms, a few per second, not one per answer.
    followTimer ??= setTimeout(flushFollowUps, 100);
  };
  const { permits } = opts;
  const slots = createWorkerSlots(
    opts.concurrency,
    (job) => {
      follow([job.rowId]);
      pump();
    },
    () => permits.held,
  );
  const { buffer } = slots;
  let stopped = false;
  let started = false;
  let claimed = 0;
  // How long each claim transaction took, for the line a stopping worker logs: whether claims
  // stay cheap as workers are added is what scale-out depends on.
  const claimMs: number[] = [];
  // The last claim found fewer jobs than it asked for: permits beyond the cells in hand go back.
  let dry = false;
  // Cells a claim under way may bring: permits for them are not given back meanwhile.
  let claiming = 0;
  let syncing = false;
  let shortAt = 0;
  // The permits this worker should hold: as many as it may use while the queue has work for it,
  // and once the queue ran short, those its cells in hand need.
  const permitsWanted = () => (dry ? slots.calling + buffer.length + claiming : opts.concurrency);
  let followTimer: NodeJS.Timeout | undefined;
  let following = Promise.resolve();
  const timers: NodeJS.Timeout[] = [];

  // A finished cell may have made others of its row ready (the DAG) or left itself pending for a
  // retry: their jobs are written here, batched. A crash before this runs is what the reconciler
  // is for.
  const flushFollowUps = () => {
    clearTimeout(followTimer);
    followTimer = undefined;
    if (followRows.size === 0) return following;
    const rows = [...followRows];
    followRows.clear();
    following = following.then(async () => {
      try {
        if ((await jobs.enqueueRows(prisma, rows)) > 0) announce();
      } catch (e) {
        console.error("[cellwright] queueing follow-up cells failed:", e);
      }
    });
    return following;
  };

  const loop = createClaimLoop({
    what: "cells",
    wanted: () => !stopped && started && buffer.length < lowWater,
    room: () => capacity - buffer.length - slots.running,
    async claim(want) {
      // Cells are claimed no further ahead of the calls than this worker's permits allow, so a
      // worker without permits leaves the jobs to those that have some. After a claim that found
      // the queue short, one permit is enough to look again; a full claim takes them all back.
      const held = await permits.want(() => Math.max(1, permitsWanted()));
      const room = Math.min(want, ahead * held - slots.calling - buffer.length);
      if (room <= 0) return "hold";
      claiming = room;
      const t0 = performance.now();
      const r = await claimJobs(prisma, jobs, owner, room, opts.leaseMs).finally(() => (claiming = 0));
      if (claimMs.length < MAX_TIMED_CLAIMS) claimMs.push(performance.now() - t0);
      claimed += r.claimed.length;
      if (stopped) {
        await releaseToQueue(prisma, jobs, owner, r.claimed);
        return "hold";
      }
      slots.enqueue(r.claimed);
      dry = r.fetched < room;
      // Jobs put off for later (their run's budget, a cell locked by another claim): wait for the
      // next wake-up rather than claim again at once.
      if (r.deferred > 0) return "hold";
      return dry ? "done" : "more";
    },
  });
  // Gives back permits the worker no longer needs, and takes more when claimed cells wait for one
  // (its session was lost, or other workers held them), at most every 250 ms while they run short.
  const syncPermits = () => {
    if (syncing || stopped) return;
    const held = permits.held;
    const wanted = permitsWanted();
    const waiting = buffer.length > 0 && slots.calling >= held && Date.now() - shortAt > 250;
    if (!(held > wanted || (held < wanted && waiting))) return;
    syncing = true;
    permits
      .want(permitsWanted)
      .then(
        (got) => void (got < permitsWanted() && (shortAt = Date.now())),
        (e) => void (!stopped && console.error("[cellwright] call permits failed:", e)),
      )
      .finally(() => {
        syncing = false;
        slots.dispatch();
      });
  };
  const pump = () => {
    slots.dispatch();
    loop.pump();
    syncPermits();
  };

  const runReconcile = async () => {
    try {
      const r = await reconcile(prisma, jobs, opts.maxAttempts);
      if (r.requeued > 0) {
        announce();
        pump();
      }
    } catch (e) {
      if (!stopped) console.error("[cellwright] reconciling the queue failed:", e);
    }
  };

  return {
    owner,
    start(w) {
      started = true;
      slots.start(w);
      timers.push(setInterval(pump, opts.pollMs ?? 1_000));
      timers.push(
        setInterval(
          () => {
            if (slots.running + buffer.length > 0) void renewLeases(prisma, owner, opts.leaseMs).catch(() => undefined);
          },
          Math.max(1_000, opts.leaseMs / 3),
        ),
      );
      timers.push(setInterval(() => void runReconcile(), opts.reconcileMs ?? Math.max(1_000, opts.leaseMs / 2)));
      void runReconcile().then(pump);
      pump();
    },
    wake: () => pump(),
    // Its permit serves the next call at once; the slot stays held until the value is stored.
    answered: (cell) => {
      slots.answered(cell);
      pump();
    },
    cancel: (refs) => slots.abort(refs),
    // A batched value has landed: the row's next cells are queued. (The follow-up when a slot
    // frees covers the outcomes written outside the batch: failures and retries.)
    stored: (rowIds) => follow(rowIds),
    async stop(graceMs = 10_000) {
      if (stopped) return;
      stopped = true;
      for (const t of timers) clearInterval(t);
      await loop.idle();
      const { waiting, cut } = await slots.stop(graceMs);
      await permits.close();
      // Claimed cells that never started, and attempts cut short, are still ours: hand them back with
      // a job so other workers take them now. (releaseToQueue skips cells no longer leased to us.)
      if ((await releaseToQueue(prisma, jobs, owner, [...waiting, ...cut]).catch(() => 0)) > 0) announce();
      await flushFollowUps();
      if (claimMs.length > 0) console.log(`[cellwright] cell queue stopped: ${claimSummary(claimed, claimMs)}`);
    },
    stats: () => slots.stats(claimed),
  };
}
