import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Tx } from "../db/database.ts";
import { claimCells, reclaimExpired, releaseCells, renewLeases } from "./claim-cells.ts";
import type { CellQueue } from "./types.ts";
import { createWorkerSlots } from "./worker-slots.ts";

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
  const slots = createWorkerSlots(opts.concurrency, () => pump());
  const { buffer } = slots;
  let stopped = false;
  let claiming = false;
  let again = false;
  let claimed = 0;
  let poll: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const pump = () => {
    slots.dispatch();
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
          const want = opts.concurrency * 2 - buffer.length - slots.running;
          if (want <= 0) break;
          const jobs = await claimCells(db, owner, want, opts.leaseMs);
          claimed += jobs.length;
          buffer.push(...jobs);
          slots.dispatch();
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
      slots.start(w);
      poll = setInterval(() => {
        void reclaimExpired(db, opts.maxAttempts)
          .catch((e) => console.error("[cellwright] reclaiming expired leases failed:", e))
          .finally(pump);
      }, opts.pollMs ?? 500);
      heartbeat = setInterval(() => {
        if (slots.running + buffer.length > 0) void renewLeases(db, owner, opts.leaseMs).catch(() => undefined);
      }, Math.max(1_000, opts.leaseMs / 3));
      pump();
    },
    wake: () => pump(),
    async stop(graceMs = 10_000) {
      stopped = true;
      clearInterval(poll);
      clearInterval(heartbeat);
      const { waiting, cut } = await slots.stop(graceMs);
      await releaseCells(db, owner, [...waiting, ...cut]).catch(() => undefined);
    },
    stats: () => slots.stats(claimed),
  };
}
