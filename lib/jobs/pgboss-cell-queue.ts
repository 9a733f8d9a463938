import type { Prisma } from "../db/database.ts";
import { cellKey, renewLeases, type CellRef } from "../domain/cells/index.ts";
import { createClaimLoop } from "./claim-loop.ts";
import { newQueueOwner } from "./db-cell-queue.ts";
import { claimJobs, releaseToQueue } from "./pgboss-claim.ts";
import { reconcile } from "./pgboss-reconciler.ts";
import type { CellJobs } from "./pgboss-jobs.ts";
import type { CellQueue } from "./types.ts";
import { createWorkerSlots } from "./worker-slots.ts";

export interface PgBossQueueOptions {
  /** Cells this process runs at once. */
  concurrency: number;
  /** Cells running at once across every worker (AI_CONCURRENCY in scale-out). */
  globalConcurrency: number;
  leaseMs: number;
  /** Attempts after which a cell whose worker keeps dying ends in error. */
  maxAttempts: number;
  /** How often to look for jobs when nothing woke the queue (default 1000 ms). */
  pollMs?: number;
  /** How often to reclaim dead workers' cells and requeue orphans (default leaseMs / 2). */
  reconcileMs?: number;
}

/**
 * The scale-out queue: pg-boss jobs deliver cells to workers, and the cells table keeps its role
 * as the record of work. A worker keeps a small buffer of claimed cells so its slots never wait
 * for a claim round trip; claimed cells count against the global cap like running ones.
 * `announce` tells other processes that new jobs exist (it emits work.available, which the
 * events bridge forwards).
 */
export function createPgBossCellQueue(prisma: Prisma, jobs: CellJobs, opts: PgBossQueueOptions, announce: () => void): CellQueue {
  const owner = newQueueOwner();
  // Claimed but not yet started: enough to cover a claim round trip on a busy database.
  const capacity = opts.concurrency * 2;
  const lowWater = Math.max(1, Math.ceil(opts.concurrency / 2));
  const followRows = new Set<string>();
  const follow = (rowIds: readonly string[]) => {
    for (const id of rowIds) followRows.add(id);
    followTimer ??= setTimeout(flushFollowUps, 25);
  };
  const slots = createWorkerSlots(opts.concurrency, (job) => {
    follow([job.rowId]);
    pump();
  });
  const { buffer } = slots;
  let stopped = false;
  let started = false;
  let claimed = 0;
  // Cells of this worker whose model call has answered and whose value is being stored. They are
  // running in the database until stored, yet call the model no more, so the global cap does not
  // count them: a claim may take their place, and when their slots free the next cells wait in the
  // buffer rather than behind a claim round trip (at the cap, a freed slot used to wait for one).
  // One already stored is no longer running, so its staying listed a moment longer changes nothing.
  const answered = new Map<string, CellRef>();
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
      const r = await claimJobs(prisma, jobs, owner, want, opts.leaseMs, opts.globalConcurrency, [...answered.values()]);
      claimed += r.claimed.length;
      if (stopped) {
        await releaseToQueue(prisma, jobs, owner, r.claimed);
        return "hold";
      }
      slots.enqueue(r.claimed);
      // A full fetch means more may be queued; at the global cap, wait for a slot to free up
      // (a completion here, or work.available from another worker).
      if (r.capped > 0) return "hold";
      return r.fetched === want ? "more" : "done";
    },
  });
  const pump = () => {
    slots.dispatch();
    loop.pump();
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
        setInterval(() => {
          if (slots.running + buffer.length > 0) void renewLeases(prisma, owner, opts.leaseMs).catch(() => undefined);
        }, Math.max(1_000, opts.leaseMs / 3)),
      );
      timers.push(setInterval(() => void runReconcile(), opts.reconcileMs ?? Math.max(1_000, opts.leaseMs / 2)));
      void runReconcile().then(pump);
      pump();
    },
    wake: () => pump(),
    answered(cell, storing) {
      const key = cellKey(cell);
      answered.set(key, cell);
      const done = () => void answered.delete(key);
      storing.then(done, done);
      loop.pump();
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
      // Claimed cells that never started, and runs cut short, are still ours: hand them back with
      // a job so other workers take them now. (releaseToQueue skips cells no longer leased to us.)
      if ((await releaseToQueue(prisma, jobs, owner, [...waiting, ...cut]).catch(() => 0)) > 0) announce();
      await flushFollowUps();
    },
    stats: () => slots.stats(claimed),
  };
}

