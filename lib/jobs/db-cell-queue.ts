import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Tx } from "../db/database.ts";
import { claimCells, reclaimExpired, releaseCells, renewLeases } from "./claim-cells.ts";
import type { CellJob, CellQueue, CellWorker } from "./types.ts";

export interface DbQueueOptions {
  concurrency: number;
  leaseMs: number;
  /** Attempts after which a cell whose worker keeps dying ends in error. */
  maxAttempts: number;
  /** How often to look for due work when nothing woke the queue (retries, expired leases). */
  pollMs?: number;
}

/**
 * The embedded queue: the cells table is the queue. Claims are leased, so a process killed at
 * any moment leaves its cells to be reclaimed once their lease expires. A small buffer of claimed
 * cells keeps every slot busy without a claim query per cell.
 */
export function createDbCellQueue(db: Tx, opts: DbQueueOptions): CellQueue {
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const buffer: CellJob[] = [];
  const running = new Map<string, { job: CellJob; abort: AbortController; done: Promise<void> }>();
  let worker: CellWorker | undefined;
  let stopped = false;
  let claiming = false;
  let again = false;
  let maxInFlight = 0;
  let claimed = 0;
  let poll: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const dispatch = () => {
    while (!stopped && worker && running.size < opts.concurrency && buffer.length > 0) {
      const job = buffer.shift()!;
      const key = `${job.rowId}:${job.columnId}`;
      const abort = new AbortController();
      const done = worker(job, abort.signal)
        .catch((e) => console.error("[cellwright] cell worker crashed:", e))
        .finally(() => {
          running.delete(key);
          pump();
        });
      running.set(key, { job, abort, done });
      maxInFlight = Math.max(maxInFlight, running.size);
    }
  };

  const pump = () => {
    dispatch();
    if (stopped || buffer.length >= opts.concurrency / 2) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = true;
    void (async () => {
      try {
        do {
          again = false;
          const want = opts.concurrency * 2 - buffer.length - running.size;
          if (want <= 0) break;
          const jobs = await claimCells(db, owner, want, opts.leaseMs);
          claimed += jobs.length;
          buffer.push(...jobs);
          dispatch();
          if (jobs.length === want) again = true;
        } while (again && !stopped && buffer.length < opts.concurrency / 2);
      } catch (e) {
        if (!stopped) console.error("[cellwright] claiming cells failed:", e);
      } finally {
        claiming = false;
      }
    })();
  };

  return {
    owner,
    start(w) {
      worker = w;
      poll = setInterval(() => {
        void reclaimExpired(db, opts.maxAttempts)
          .catch((e) => console.error("[cellwright] reclaiming expired leases failed:", e))
          .finally(pump);
      }, opts.pollMs ?? 500);
      heartbeat = setInterval(() => {
        if (running.size + buffer.length > 0) void renewLeases(db, owner, opts.leaseMs).catch(() => undefined);
      }, Math.max(1_000, opts.leaseMs / 3));
      pump();
    },
    wake: () => pump(),
    async stop(graceMs = 10_000) {
      stopped = true;
      clearInterval(poll);
      clearInterval(heartbeat);
      const waiting = buffer.splice(0);
      const inFlight = [...running.values()];
      const finished = Promise.all(inFlight.map((r) => r.done));
      const timedOut = await Promise.race([finished.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), graceMs).unref())]);
      if (timedOut) for (const r of running.values()) r.abort.abort(new Error("shutting down"));
      await releaseCells(db, owner, [...waiting, ...[...running.values()].map((r) => r.job)]).catch(() => undefined);
    },
    stats: () => ({ inFlight: running.size, maxInFlight, claimed }),
  };
}
