import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Tx } from "../db/database.ts";
import { claimReadyCells, releaseCells, renewLeases, returnLeases } from "../domain/cells/index.ts";
import type { CellQueue } from "./types.ts";
import { createWorkerSlots } from "./worker-slots.ts";
import { createClaimLoop } from "./claim-loop.ts";

export interface DbQueueOptions {
  concurrency: number;
  leaseMs: number;
  /** Attempts after which a cell whose worker keeps dying ends in error. */
  maxAttempts: number;
  /** How often to look for due work when nothing woke the queue (retries, expired leases). */
  pollMs?: number;
}

export const newQueueOwner = () => `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

/**
 * The embedded queue: the cells table is the queue. Claims are leased, so a process killed at
 * any moment leaves its cells to be reclaimed once their lease expires. A small buffer of claimed
 * cells keeps every slot busy without a claim query per cell.
 */
export function createDbCellQueue(db: Tx, opts: DbQueueOptions): CellQueue {
  const owner = newQueueOwner();
  const slots = createWorkerSlots(opts.concurrency, () => pump());
  const { buffer } = slots;
  let stopped = false;
  let claimed = 0;
  let poll: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const loop = createClaimLoop({
    what: "cells",
    wanted: () => !stopped && buffer.length < opts.concurrency / 2,
    room: () => opts.concurrency * 2 - buffer.length - slots.running,
    async claim(want) {
      const jobs = await claimReadyCells(db, owner, want, opts.leaseMs);
      claimed += jobs.length;
      slots.enqueue(jobs);
      return jobs.length === want ? "more" : "done";
    },
  });
  const pump = () => {
    slots.dispatch();
    loop.pump();
  };

  return {
    owner,
    start(w) {
      slots.start(w);
      poll = setInterval(() => {
        void returnLeases(db, { expiredOnly: true, maxAttempts: opts.maxAttempts })
          .catch((e) => console.error("[cellwright] reclaiming expired leases failed:", e))
          .finally(pump);
      }, opts.pollMs ?? 500);
      heartbeat = setInterval(
        () => {
          if (slots.running + buffer.length > 0) void renewLeases(db, owner, opts.leaseMs).catch(() => undefined);
        },
        Math.max(1_000, opts.leaseMs / 3),
      );
      pump();
    },
    wake: () => pump(),
    cancel: (refs) => slots.abort(refs),
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
