import type { Config } from "./config.ts";
import { openDatabase, targetFromConfig, type Database, type DatabaseTarget } from "./db/database.ts";
import { migrate, pendingMigrations } from "./db/migrate.ts";
import type { TxReaction, UnitOfWork } from "./db/work.ts";
import { EventBus } from "./events.ts";
import { seedFromConfig } from "./workspaces.ts";
import { returnLeases } from "./domain/cells/index.ts";
import { startQueueEngine, type QueueEngine, type QueueEngineName } from "./jobs/queue-engine.ts";
import { perKeyTokenBuckets, type RateLimiter } from "./engine/rate-limit.ts";
import { sharedTokenBuckets } from "./engine/shared-rate-limit.ts";
import { outboxReaction } from "./webhooks/outbox.ts";
import { releaseAllLeases } from "./webhooks/claim-messages.ts";
import { removeStoredFiles } from "./files/file-store.ts";
import { watchSheetIndexes } from "./db/sheet-indexes.ts";
import { watchWrites } from "./db/embedded-maintenance.ts";
import { apiRateLimiter, databaseBuckets, memoryBuckets, type ApiRateLimiter } from "./auth/api-rate-limit.ts";
import { secretsKeyring, type SecretsKeyring } from "./secrets/index.ts";

/**
 * Everything a request or a worker needs, built once from an explicit Config: the database, the
 * queue engine and the rate limiter are chosen here and handed down ready, so no other module
 * asks which vendor or queue engine it runs on.
 */
export interface Runtime extends UnitOfWork {
  config: Config;
  db: Database;
  bus: EventBus;
  queue: QueueEngine;
  /** The model-call rate limit (AI_RPM): per process, or shared through the database. */
  limiter: RateLimiter;
  /** The API's per-key request limit (API_RATE_LIMIT): in memory, or shared through the database. */
  apiLimiter: ApiRateLimiter;
  reactions: TxReaction[];
  /** The key of workspace secrets: SECRETS_KEY, or on a database one process owns, DATA_DIR's. */
  secrets: SecretsKeyring;
  /** The migrations this process knows and the database lacks (the health check's readiness). */
  pendingMigrations(): Promise<string[]>;
  /** Background services (engine, webhook relay, queue engine) register their stop functions here. */
  services: { name: string; stop: () => Promise<void> }[];
}

export interface RuntimeOptions {
  target?: DatabaseTarget;
  /**
   * The queue engine. Default: the embedded queue on a database one process owns, pg-boss on a
   * shared PostgreSQL. Commands that run no enrichment (the CLI, tests) pick "database" to start
   * no queue engine.
   */
  queue?: QueueEngineName;
}

export async function createRuntime(config: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  const db = await openDatabase(opts.target ?? targetFromConfig(config));
  try {
    await migrate(db);
    if (db.exclusive) {
      // One process owns this database, so every lease left is a dead process's: hand the work
      // back now instead of waiting for the leases to run out.
      await returnLeases(db.prisma, { expiredOnly: false, maxAttempts: config.ai.maxAttempts });
      await releaseAllLeases(db.prisma);
    }
    await seedFromConfig(db.prisma, config);
    const bus = new EventBus();
    const services: Runtime["services"] = [];
    const queue = await startQueueEngine(opts.queue ?? (db.exclusive ? "database" : "pg-boss"), {
      config,
      db,
      bus,
      services,
    });
    services.push({ name: "queue engine", stop: () => queue.stop() });
    const limiter = db.exclusive ? perKeyTokenBuckets(config.ai.rpm) : sharedTokenBuckets(db.prisma, config.ai.rpm);
    // Shared buckets are taken from in leases of up to a tenth of a second's tokens (see api-rate-limit.ts).
    const apiLimiter = db.exclusive
      ? apiRateLimiter(config.apiRateLimit, memoryBuckets())
      : apiRateLimiter(config.apiRateLimit, databaseBuckets(db.prisma), 100);
    const reactions = [outboxReaction, ...(queue.reaction ? [queue.reaction] : [])];
    const indexes = watchSheetIndexes(db, bus, config.columnIndexMinRows);
    services.push({ name: "sheet indexes", stop: () => indexes.stop() });
    const writes = watchWrites(db, bus);
    services.push({ name: "database maintenance", stop: () => writes.stop() });
    bus.on((e) => {
      if (e.type === "files.released")
        void removeStoredFiles({ config }, e.storagePaths).catch((err) =>
          console.error("[cellwright] removing files failed:", err),
        );
    });
    // Every migration was applied above; on a database one process owns nobody can undo that, so
    // the health check asks no statement that would wait behind other requests' work.
    const pending = db.exclusive ? async () => [] : () => pendingMigrations(db);
    const secrets = secretsKeyring(config, db.exclusive);
    return { config, db, bus, queue, limiter, apiLimiter, reactions, secrets, services, pendingMigrations: pending };
  } catch (e) {
    await db.close().catch(() => undefined);
    throw e;
  }
}

// Next.js bundles route handlers separately, so the process's runtime lives on globalThis for all
// bundles (and the engine) to share one database handle. boot() installs it at server start.
const KEY = Symbol.for("cellwright.runtime");
type Slot = { promise?: Promise<Runtime> };
const slot: Slot = ((globalThis as Record<symbol, Slot>)[KEY] ??= {});

/** The process's runtime, as installed at start (boot) or by a test. */
export function getRuntime(): Promise<Runtime> {
  return (
    slot.promise ??
    Promise.reject(new Error("No runtime is installed: the server builds it at start (instrumentation.ts → boot)."))
  );
}

/**
 * Makes `rt` the process's runtime. Returns a function that puts back whatever was installed
 * before (tests and benchmarks install their own).
 */
export function installRuntime(rt: Runtime | Promise<Runtime> | undefined): () => void {
  const previous = slot.promise;
  slot.promise = rt ? Promise.resolve(rt) : undefined;
  return () => {
    slot.promise = previous;
  };
}

export async function stopRuntime(rt: Runtime): Promise<void> {
  for (const s of [...rt.services].reverse())
    await s.stop().catch((e) => console.error(`[cellwright] stopping ${s.name}:`, e));
  await rt.db.close();
}
