import type { Runtime } from "../runtime.ts";
import type { CellQueue } from "../jobs/types.ts";
import { createDbCellQueue } from "../jobs/db-cell-queue.ts";
import { createPgBossCellQueue } from "../jobs/pgboss-cell-queue.ts";
import { perKeyTokenBuckets } from "./rate-limit.ts";
import { sharedTokenBuckets } from "./shared-rate-limit.ts";
import { createCellWorker, type RunnerDeps } from "./cell-runner.ts";
import { dbSearchCache } from "./search-cache.ts";
import { systemDnsResolver } from "../tools/index.ts";
import { storedFiles } from "../files/file-store.ts";
import { createCompletionBatcher } from "./completion-batch.ts";

export interface EngineOptions {
  tools?: RunnerDeps["tools"];
}

/**
 * Starts the enrichment engine in this process: it claims ready cells from the queue, at most
 * AI_CONCURRENCY at once and AI_RPM a minute, and wakes whenever a commit queues new work.
 */
export async function startEngine(rt: Runtime, opts: EngineOptions = {}): Promise<CellQueue> {
  if (rt.db.vendor === "pglite") {
    // One process owns an embedded database, so cells left running belong to a process that
    // died: hand them back at once instead of waiting for their leases to expire.
    await rt.db.prisma.$executeRawUnsafe(
      `UPDATE cells SET status = 'pending', attempts = attempts + 1, lease_owner = NULL, lease_until = NULL, available_at = now()
       WHERE status = 'running'`,
    );
  }
  const { ai } = rt.config;
  // Scale-out (PostgreSQL with the queue engine): cells arrive as pg-boss jobs, AI_CONCURRENCY
  // is a cap across all workers, and the rate limit lives in the database.
  const queue = rt.cellJobs
    ? createPgBossCellQueue(rt.db.prisma, rt.cellJobs, { concurrency: ai.workerConcurrency, globalConcurrency: ai.concurrency, leaseMs: ai.leaseMs }, () =>
        rt.bus.emit({ type: "work.available" }),
      )
    : createDbCellQueue(rt.db.prisma, { concurrency: ai.concurrency, leaseMs: ai.leaseMs, maxAttempts: ai.maxAttempts });
  const batcher = createCompletionBatcher(rt, queue.owner, (rowIds) => queue.stored?.(rowIds));
  const worker = createCellWorker(rt, {
    limiter: rt.db.vendor === "postgres" ? sharedTokenBuckets(rt.db.prisma, ai.rpm) : perKeyTokenBuckets(ai.rpm),
    owner: queue.owner,
    complete: (c) => batcher.complete(c),
    tools: { cache: dbSearchCache(rt.db.prisma), dns: systemDnsResolver, files: storedFiles(rt), ...opts.tools },
  });
  queue.start(worker);
  const off = rt.bus.on((e) => {
    if (e.type === "work.available") queue.wake();
  });
  rt.services.push({
    name: "engine",
    stop: async () => {
      off();
      await queue.stop();
      await batcher.drain();
    },
  });
  return queue;
}
