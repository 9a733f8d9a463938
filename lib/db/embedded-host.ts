import { parentPort, workerData } from "node:worker_threads";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { preparedStatementClient } from "./pglite-statements.ts";
import { MAINTENANCE_DEFAULTS, maintainEmbedded } from "./embedded-maintenance.ts";
import { type Reply, type Request, toWire } from "./embedded-wire.ts";

// The embedded database's own thread: it owns PGlite, the prepared-statement client, the upkeep
// (embedded-maintenance.ts) and the PANIC watch, and answers the server's threads' requests
// (embedded-thread.ts). PGlite runs each statement synchronously under its promises; here that
// holds this thread only, never the one that serves HTTP.

// PostgreSQL's default 128 MB of shared buffers sit in the embedded database's wasm memory, which
// never shrinks once they are used. 32 MB holds the hot pages; the rest of the data directory stays
// in the OS's page cache, a read away. After a scan of a 48 MB table: 75 MB less resident memory, at
// the same scan time. max_wal_size: the embedded database hangs once one stretch of WAL passes
// about half of it (embedded-maintenance.ts checkpoints long before); 4 GB leaves a single
// transaction 2 GB of room where 1 GB left it 539 MB. pg_trgm: row search's trigram index.
export const PGLITE_OPTIONS = {
  extensions: { pg_trgm },
  startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB", "-c", "max_wal_size=4GB"],
};

export interface HostOptions {
  /** Called with PGlite once it is ready, before the first request (test fakes of a broken backend). */
  opened?: (pglite: PGlite) => Promise<void>;
}

/** Serves the embedded database in this worker thread; `workerData.dir` is its cluster, none for memory. */
export async function hostEmbedded({ opened }: HostOptions = {}): Promise<void> {
  const port = parentPort!;
  const post = (reply: Reply) => port.postMessage(reply);
  const dir = (workerData as { dir?: string } | undefined)?.dir;
  const pglite = dir ? new PGlite(dir, PGLITE_OPTIONS) : new PGlite(PGLITE_OPTIONS);
  try {
    await pglite.waitReady;
  } catch (e) {
    // A cluster that fails to start must not stay open: the directory's lock is released next.
    await pglite.close().catch(() => undefined);
    post({ failed: toWire(e) });
    return;
  }
  const statements = preparedStatementClient(pglite, { text: true, onPanic: (e) => post({ panic: toWire(e) }) });
  const transactions = new Map<number, OpenTransaction>();
  // The requests' statements in flight and when the last one ended: the upkeep waits for a lull.
  let statementsInFlight = 0;
  let lastStatementAt = performance.now();
  const quietForMs = () => (statementsInFlight > 0 || transactions.size > 0 ? 0 : performance.now() - lastStatementAt);
  const maintenance = maintainEmbedded(pglite, MAINTENANCE_DEFAULTS, quietForMs);
  await opened?.(pglite);

  const handle = async (r: Request): Promise<unknown> => {
    switch (r.op) {
      case "query":
        return statements.query(r.sql, r.params);
      case "exec":
        return statements.exec(r.sql);
      case "begin":
        return begin(r.tx);
      case "txQuery":
        return (await begun(r.tx)).query(r.sql, r.params);
      case "txExec":
        return (await begun(r.tx)).exec(r.sql);
      case "rollback":
        return (await begun(r.tx)).rollback();
      case "end": {
        const t = open(r.tx);
        transactions.delete(r.tx);
        await t.tx.catch(() => undefined);
        t.finish(r.ok);
        return t.done;
      }
      case "maintain":
        return maintenance.runNow();
      case "stopMaintenance":
        return maintenance.stop();
      case "noteWrites":
        maintenance.noteWrites(r.rows);
        return undefined;
      case "close":
        await maintenance.stop();
        await pglite.close();
        return undefined;
    }
  };
  const open = (tx: number) => {
    const t = transactions.get(tx);
    if (!t) throw new Error("Transaction is closed");
    return t;
  };
  // The transaction's statements wait here for its BEGIN, in the order they came: the asking side
  // sends them without waiting for the BEGIN's answer (embedded-thread.ts), one round trip fewer.
  const begun = (tx: number) => open(tx).tx;
  // Registered at once, begun once PGlite's queue reaches it; it runs on until its "end".
  const begin = (id: number): Promise<void> => {
    let finish: (ok: boolean) => void = () => undefined;
    let done!: Promise<void>;
    const tx = new Promise<Transaction>((started, failed) => {
      done = statements
        .transaction(
          (tx) =>
            new Promise<void>((commit, rollBack) => {
              finish = (ok) => (ok ? commit() : rollBack(new Error("rolled back by its caller")));
              started(tx);
            }),
        )
        .then(() => undefined);
      done.catch(failed);
    });
    // A BEGIN that failed is told to the statements that waited for it and to the "end".
    done.catch(() => undefined);
    transactions.set(id, { tx, finish: (ok) => finish(ok), done });
    return tx.then(() => undefined);
  };

  const STATEMENTS = new Set<Request["op"]>(["query", "exec", "begin", "txQuery", "txExec", "rollback", "end"]);
  const measured = async (r: Request): Promise<unknown> => {
    if (!STATEMENTS.has(r.op)) return handle(r);
    statementsInFlight++;
    try {
      return await handle(r);
    } finally {
      statementsInFlight--;
      lastStatementAt = performance.now();
    }
  };

  port.on("message", (m: { id: number } & Request) => {
    measured(m).then(
      (value) => m.op !== "noteWrites" && post({ id: m.id, value }),
      (e: unknown) => post({ id: m.id, error: toWire(e) }),
    );
  });
  post({ ready: { arrayTypes: await arrayTypes(pglite) } });
}

interface OpenTransaction {
  /** Settles once PGlite has begun the transaction (or failed to). */
  tx: Promise<Transaction>;
  finish(ok: boolean): void;
  /** Settles once the transaction has committed or rolled back. */
  done: Promise<void>;
}

/**
 * The array types and their elements, from which the asking side builds the parsers that PGlite
 * builds for itself at start (its _initArrayTypes): text[], jsonb[], and the rest.
 */
async function arrayTypes(pglite: PGlite): Promise<[number, number][]> {
  const { rows } = await pglite.query<{ oid: number; typarray: number }>(
    `SELECT b.oid, b.typarray FROM pg_catalog.pg_type a
       LEFT JOIN pg_catalog.pg_type b ON b.oid = a.typelem
      WHERE a.typcategory = 'A' GROUP BY b.oid, b.typarray ORDER BY b.oid`,
  );
  return rows.map((r) => [r.oid, r.typarray]);
}
