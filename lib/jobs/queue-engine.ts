import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { TxReaction } from "../db/work.ts";
import type { EventBus } from "../events.ts";
import { appError } from "../errors.ts";
import { startEventsBridge } from "../events-bridge.ts";
import type { CellQueue } from "./types.ts";
import { createDbCellQueue } from "./db-cell-queue.ts";
import type { CellJobs } from "./pgboss-jobs.ts";

export type QueueEngineName = "database" | "pg-boss";

/**
 * The queue port, chosen once when the runtime is built: the embedded queue (the cells table
 * itself) or a real queue engine for scale-out. Nothing else asks which one it is.
 */
export interface QueueEngine {
  readonly name: QueueEngineName;
  /** Writes queued cells' jobs in the transaction that queues them (the embedded queue needs none). */
  readonly reaction?: TxReaction;
  /** A queue for one enrichment engine of this process to claim from. */
  createCellQueue(onWork: () => void): CellQueue;
  reachable(): Promise<boolean>;
  stop(): Promise<void>;
  /** The queue engine's cell jobs (pg-boss only): the reconciler and tests reach them here. */
  readonly jobs?: CellJobs;
}

interface Deps {
  config: Config;
  db: Database;
  bus: EventBus;
  services: { name: string; stop: () => Promise<void> }[];
}

export async function startQueueEngine(name: QueueEngineName, deps: Deps): Promise<QueueEngine> {
  return name === "pg-boss" ? startPgBossEngine(deps) : embeddedEngine(deps);
}

function embeddedEngine({ config, db }: Deps): QueueEngine {
  const { ai } = config;
  return {
    name: "database",
    createCellQueue: () =>
      createDbCellQueue(db.prisma, { concurrency: ai.concurrency, leaseMs: ai.leaseMs, maxAttempts: ai.maxAttempts }),
    // The cells table is the queue: it is reachable whenever the database is.
    reachable: () => db.ping(),
    stop: async () => undefined,
  };
}

/**
 * Scale-out: cells arrive as pg-boss jobs, AI_CONCURRENCY caps the model calls in flight across all
 * workers (call permits), and every process, web or worker, shares its after-commit events through
 * the events bridge.
 */
async function startPgBossEngine(deps: Deps): Promise<QueueEngine> {
  const { config, db } = deps;
  const url = config.databaseUrl ?? db.pool?.options.connectionString;
  if (!url) throw appError("internal_error", "The pg-boss queue engine needs PostgreSQL (DATABASE_URL).");
  // Loaded only where pg-boss is the queue engine: an embedded server never holds it.
  const [{ startCellJobs }, { createPgBossCellQueue }, { createCallPermits }] = await Promise.all([
    import("./pgboss-jobs.ts"),
    import("./pgboss-cell-queue.ts"),
    import("./call-permits.ts"),
  ]);
  const jobs = await startCellJobs(url);
  await startEventsBridge(deps, url);
  const { ai } = config;
  return {
    name: "pg-boss",
    jobs,
    reaction: async (tx, event) => {
      if (event.type === "cells.queued") await jobs.enqueue(tx, event.refs);
      return undefined;
    },
    createCellQueue: (onWork) =>
      createPgBossCellQueue(
        db.prisma,
        jobs,
        {
          concurrency: ai.workerConcurrency,
          permits: createCallPermits(url, ai.concurrency),
          leaseMs: ai.leaseMs,
          maxAttempts: ai.maxAttempts,
        },
        onWork,
      ),
    reachable: () => jobs.reachable(),
    stop: () => jobs.stop(),
  };
}
