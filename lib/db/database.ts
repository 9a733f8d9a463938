import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/client.ts";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock.ts";
import { createEmbeddedCluster, embeddedDir } from "./embedded-cluster.ts";
import { preparedStatementClient } from "./pglite-statements.ts";
import { maintainEmbedded, type EmbeddedMaintenance } from "./embedded-maintenance.ts";

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
  exec(sql: string): Promise<void>;
  /** Runs fn while holding a database-wide lock, so that only one process migrates at a time. */
  withMigrationLock<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** The PostgreSQL pool (postgres vendor only), for LISTEN/NOTIFY and benchmarks' raw floor. */
  pool?: pg.Pool;
  /** The PGlite instance (pglite vendor only), for benchmarks' raw floor. */
  pglite?: PGlite;
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
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), errorFormat: "minimal" });
  return {
    vendor: "postgres",
    exclusive: false,
    prisma,
    pool,
    read: async <T>(sql: string, params: unknown[]) => (await pool.query(sql, params)).rows as T[],
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
      await pool.end();
    },
  };
}

// Row search's trigram index (see the find_and_review migration).
const PGLITE_EXTENSIONS = { pg_trgm };
// PostgreSQL's default 128 MB of shared buffers sit in the embedded database's wasm memory, which
// never shrinks once they are used. 32 MB holds the hot pages; the rest of the data directory stays
// in the OS's page cache, a read away. After a scan of a 48 MB table: 75 MB less resident memory, at
// the same scan time. max_wal_size: the embedded database hangs once one stretch of WAL passes
// about half of it (embedded-maintenance.ts checkpoints long before); 4 GB leaves a single
// transaction 2 GB of room where 1 GB left it 539 MB.
const PGLITE_OPTIONS = {
  extensions: PGLITE_EXTENSIONS,
  startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB", "-c", "max_wal_size=4GB"],
};

async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (!dataDir) return pgliteDatabase(new PGlite(PGLITE_OPTIONS));
  mkdirSync(dataDir, { recursive: true });
  const lock = acquireDataDirLock(dataDir);
  try {
    await createEmbeddedCluster(dataDir);
    return await pgliteDatabase(new PGlite(embeddedDir(dataDir), PGLITE_OPTIONS), lock);
  } catch (e) {
    lock.release();
    throw e;
  }
}

/** A cluster directory opened as it is, created by PGlite when missing: the template's maker (embedded-cluster.ts) only. */
export const openEmbeddedCluster = (dir: string): Promise<Database> => pgliteDatabase(new PGlite(dir, PGLITE_OPTIONS));

async function pgliteDatabase(pglite: PGlite, lock?: DataDirLock): Promise<Database> {
  // A cluster that fails to start must not stay open: the caller releases the directory's lock,
  // and a retry in the same process would find the old instance still holding its files.
  await pglite.waitReady.catch(async (e: unknown) => {
    await pglite.close().catch(() => undefined);
    throw e;
  });
  // Prisma and `read` share one statement cache and PGlite's queue.
  const statements = preparedStatementClient(pglite, { onPanic: exitAfterPanic });
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(statements as PGlite), errorFormat: "minimal" });
  const maintenance = maintainEmbedded(pglite);
  return {
    vendor: "pglite",
    exclusive: true,
    prisma,
    pglite,
    maintenance,
    read: async <T>(sql: string, params: unknown[]) => (await statements.query<T>(sql, params)).rows,
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
      await maintenance.stop();
      await prisma.$disconnect();
      await pglite.close();
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
function exitAfterPanic(error: Error): void {
  console.error(
    `[cellwright] the embedded database stopped with a PANIC (${error.message}); exiting with status ${EXIT_DATABASE_PANIC} to be restarted`,
  );
  process.exitCode = EXIT_DATABASE_PANIC;
  setImmediate(() => process.exit(EXIT_DATABASE_PANIC));
}
