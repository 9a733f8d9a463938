import { mkdirSync } from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaPg } from "@prisma/adapter-pg";
import { preparedName } from "./prepared.ts";
import pg from "pg";
import { PrismaClient } from "./generated/client.ts";
import { type CopyIn, copyInOver } from "./copy-in.ts";
import { type CopyOut, copyOutOver } from "./copy-out.ts";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock.ts";
import { createEmbeddedCluster, embeddedDir } from "./embedded-cluster.ts";
import type { EmbeddedMaintenance } from "./embedded-maintenance.ts";
import { type EmbeddedThreadOptions, startEmbeddedThread } from "./embedded-thread.ts";

export type Prisma = InstanceType<typeof PrismaClient>;
/** A Prisma client or an interactive transaction of one: domain functions accept either. */
export type Tx = Omit<Prisma, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/**
 * One read statement outside any transaction, answered by the driver: rows as the driver parses
 * them (json and jsonb as values, text as strings), without Prisma's mapping of a raw result,
 * which costs a hot read under load about a third of its database time. Never call it inside a
 * transaction: on PGlite it waits for the open one to end.
 */
export type Read = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/**
 * The vendor port: PGlite or PostgreSQL behind one shape. Callers use `prisma`, `read` for the
 * hottest single reads, or `exec` for multi-statement SQL (migrations). Nobody else branches on
 * the vendor.
 */
export interface Database {
  vendor: "pglite" | "postgres";
  /**
   * One process owns this database (PGlite's data-dir lock): work it left leased belongs to a
   * dead process, and no limit has to be shared with another process.
   */
  exclusive: boolean;
  prisma: Prisma;
  read: Read;
  /**
   * One statement outside any transaction that commits without waiting for the disk (PostgreSQL's
   * synchronous_commit off, on connections of its own): for state a crash of the database may lose
   * without harm, such as leases that run out anyway. Each commit otherwise waits for a flush of the
   * log, several milliseconds on a common disk, and a caller that takes turns through the database
   * (the HTTP host gate) waits that long at every turn. Answered by the driver, as `read` is.
   */
  volatile: Read;
  exec(sql: string): Promise<void>;
  /**
   * Whether the database takes statements, for health checks. On the embedded database: whether its
   * thread is up and unbroken, asked without a statement, which would wait behind other requests'
   * work (a 10,000-row Add Rows holds it for seconds) while a health check must answer at once.
   */
  ping(): Promise<boolean>;
  /** Runs fn while holding a database-wide lock, so that only one process migrates at a time. */
  withMigrationLock<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** COPY FROM STDIN inside a transaction (postgres vendor only; copy-in.ts): bulk imports. */
  copyIn?: CopyIn;
  /** COPY TO STDOUT of one text column on a pooled connection (postgres vendor only; copy-out.ts): exports. */
  copyOut?: CopyOut;
  /** The PostgreSQL pool (postgres vendor only), for LISTEN/NOTIFY and benchmarks' raw floor. */
  pool?: pg.Pool;
  /** Its checkpoints and vacuums (pglite vendor only; embedded-maintenance.ts), for tests to run a round now. */
  maintenance?: EmbeddedMaintenance;
}

export type DatabaseTarget =
  | { kind: "postgres"; url: string; poolSize?: number }
  | { kind: "pglite"; dataDir: string }
  | { kind: "pglite-memory" };

export function targetFromConfig(c: { databaseUrl?: string; dataDir: string }): DatabaseTarget {
  return c.databaseUrl ? { kind: "postgres", url: c.databaseUrl } : { kind: "pglite", dataDir: c.dataDir };
}

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === "postgres") return openPostgres(target.url, target.poolSize ?? 10);
  return openPglite(target.kind === "pglite" ? target.dataDir : undefined);
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client can lose its connection (a restart, a terminated backend); pg reports that as
  // an 'error' event, which would crash the process if nobody listened. The pool replaces it.
  pool.on("error", (e) => console.warn(`[cellwright] idle database connection lost: ${e.message}`));
  // The adapter's type asks for a name for every statement; undefined leaves one unnamed (pg's default).
  const statementNameGenerator = (q: { sql: string }) => preparedName(q.sql) as string;
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { statementNameGenerator }), errorFormat: "minimal" });
  // Made on first use: most processes never need it.
  let volatilePool: pg.Pool | undefined;
  const volatile = () => {
    if (!volatilePool) {
      // A generic plan: planned again at every bind (PostgreSQL's custom plans), the host gate's
      // round took 1.1 ms to plan and 0.4 ms to run.
      volatilePool = new pg.Pool({
        connectionString: url,
        max: 2,
        options: "-c synchronous_commit=off -c plan_cache_mode=force_generic_plan",
      });
      volatilePool.on("error", (e) => console.warn(`[cellwright] idle database connection lost: ${e.message}`));
    }
    return volatilePool;
  };
  return {
    vendor: "postgres",
    exclusive: false,
    prisma,
    pool,
    copyIn: copyInOver(pool),
    // Half the pool: downloads as slow as their clients never hold every connection.
    copyOut: copyOutOver(pool, Math.max(1, Math.floor(max / 2))),
    read: async <T>(sql: string, params: unknown[]) => (await pool.query(sql, params)).rows as T[],
    volatile: async <T>(sql: string, params: unknown[]) =>
      (await volatile().query({ name: preparedName(sql), text: sql, values: params })).rows as T[],
    ping: () =>
      pool.query("SELECT 1").then(
        () => true,
        () => false,
      ),
    async exec(sql) {
      const client = await pool.connect();
      try {
        await client.query(sql);
      } catch (e) {
        // A failed multi-statement script can leave its transaction open on this connection.
        await client.query("ROLLBACK").catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    async withMigrationLock(fn) {
      const client = await pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock(727274)");
        return await fn();
      } finally {
        await client.query("SELECT pg_advisory_unlock(727274)").catch(() => undefined);
        client.release();
      }
    },
    async close() {
      await prisma.$disconnect();
      await volatilePool?.end();
      await pool.end();
    },
  };
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (!dataDir) return embeddedDatabase({ onPanic: exitAfterPanic });
  mkdirSync(dataDir, { recursive: true });
  const lock = acquireDataDirLock(dataDir);
  try {
    await createEmbeddedCluster(dataDir);
    return await embeddedDatabase({ dir: embeddedDir(dataDir), onPanic: exitAfterPanic }, lock);
  } catch (e) {
    lock.release();
    throw e;
  }
}

/** A cluster directory opened as it is, created by PGlite when missing: the template's maker (embedded-cluster.ts) only. */
export const openEmbeddedCluster = (dir: string): Promise<Database> =>
  embeddedDatabase({ dir, onPanic: exitAfterPanic });

/** The embedded database in its own thread (embedded-thread.ts); `lock` is released when it closes. */
export async function embeddedDatabase(options: EmbeddedThreadOptions, lock?: DataDirLock): Promise<Database> {
  const thread = await startEmbeddedThread(options);
  // Prisma and `read` share one statement cache and PGlite's queue, in the database's thread.
  const statements = thread.statements;
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(statements as PGlite), errorFormat: "minimal" });
  return {
    vendor: "pglite",
    exclusive: true,
    prisma,
    maintenance: thread.maintenance,
    read: async <T>(sql: string, params: unknown[]) => (await statements.query<T>(sql, params)).rows,
    // One process, one database thread: nobody else waits on these commits.
    volatile: async <T>(sql: string, params: unknown[]) => (await statements.query<T>(sql, params)).rows,
    ping: async () => thread.alive(),
    async exec(sql) {
      try {
        await statements.exec(sql);
      } catch (e) {
        await statements.exec("ROLLBACK").catch(() => undefined);
        throw e;
      }
    },
    // One process owns a PGlite directory (the data-dir lock), so there is nobody to exclude.
    withMigrationLock: (fn) => fn(),
    async close() {
      await prisma.$disconnect();
      await thread.close();
      lock?.release();
    },
  };
}

/** The exit status after a PANIC of the embedded database (EX_SOFTWARE). */
export const EXIT_DATABASE_PANIC = 70;

// After a PANIC the embedded backend fails every statement until it starts again, and it cannot
// be started again under the Prisma client and services that hold it. So the process exits, and
// its supervisor (Docker's restart policy, systemd, `npm start` under either) starts it again;
// the data directory recovers from its write-ahead log as after any crash.
export function exitAfterPanic(error: Error): void {
  console.error(
    `[cellwright] the embedded database stopped with a PANIC (${error.message}); exiting with status ${EXIT_DATABASE_PANIC} to be restarted`,
  );
  process.exitCode = EXIT_DATABASE_PANIC;
  setImmediate(() => process.exit(EXIT_DATABASE_PANIC));
}
