import path from "node:path";
import { Worker } from "node:worker_threads";
import { types, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";
import type { EmbeddedMaintenance, MaintenanceRound } from "./embedded-maintenance.ts";
import type { StatementClient } from "./pglite-statements.ts";
import { type Parsers, type TextResult, typedResult } from "./pglite-results.ts";
import { fromWire, type Reply, type Request, type WireError } from "./embedded-wire.ts";

// The server's side of the embedded database, which runs in a worker thread of its own
// (embedded-host.ts): a statement, however long, holds that thread and never the one that serves
// HTTP. A request that needs the database waits its turn in PGlite's queue there; one that does not
// (a health check, a 401) is answered at once. Rows cross as the backend's text and are parsed here
// by the caller's parsers (the Prisma adapter's own), as PGlite would parse them in process.

export interface EmbeddedThreadOptions {
  /** The cluster's directory; none for an in-memory database. */
  dir?: string;
  /** Called once when the database breaks (a PANIC, a statement cut short, the thread's death). */
  onPanic(error: Error): void;
  /** The worker's module (a test's fake of a broken backend); the real one by default. */
  workerFile?: string;
}

export interface EmbeddedThread {
  statements: StatementClient;
  maintenance: EmbeddedMaintenance;
  /** The thread is up and its database unbroken (no PANIC, no statement cut short). */
  alive(): boolean;
  /**
   * Closes the database; when a statement still holds it after `graceMs`, ends the thread with it
   * (the next start recovers from the write-ahead log, as after a crash). Whether it closed in time.
   */
  close(graceMs?: number): Promise<boolean>;
}

/** How long close() waits for the statement in progress before ending the thread. */
export const CLOSE_GRACE_MS = 4_000;

// Resolved from the project root at run time, as the extraction threads are: the worker is its own
// module graph, loaded by Node (which strips TypeScript's types), not part of the server bundle.
const WORKER_FILE = () => path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "db", "embedded-worker.ts");

export async function startEmbeddedThread(options: EmbeddedThreadOptions): Promise<EmbeddedThread> {
  const worker = new Worker(options.workerFile ?? WORKER_FILE(), { workerData: { dir: options.dir } });
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 0;
  let broken: Error | undefined;
  let closing = false;

  const fail = (e: Error, panic: boolean) => {
    if (broken) return;
    broken = e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
    if (panic) options.onPanic(e);
  };
  const ready = new Promise<[number, number][]>((resolve, reject) => {
    worker.on("message", (m: Reply) => {
      if ("ready" in m) return resolve(m.ready.arrayTypes);
      if ("failed" in m) return reject(fromWire(m.failed));
      if ("panic" in m) return fail(fromWire(m.panic), true);
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (!pending.size) worker.unref();
      if ("error" in m) p.reject(fromWire(m.error as WireError));
      else p.resolve(m.value);
    });
    worker.once("error", (e) => {
      reject(e);
      fail(e, !closing);
    });
    worker.once("exit", (code) => {
      const e = new Error(`The embedded database's thread ended (exit code ${code})`);
      reject(e);
      fail(e, !closing);
    });
  });
  const arrayTypes = await ready.catch(async (e: unknown) => {
    await worker.terminate();
    throw e;
  });

  // A request keeps the process alive until it is answered; an idle database never does.
  const ask = <T>(request: Request): Promise<T> => {
    if (broken) return Promise.reject(broken);
    const id = ++nextId;
    if (!pending.size) worker.ref();
    worker.postMessage({ id, ...request });
    return new Promise<T>((resolve, reject) => pending.set(id, { resolve: resolve as (v: unknown) => void, reject }));
  };
  worker.unref();

  const parsers: Parsers = { ...types.parsers } as Parsers;
  for (const [oid, typarray] of arrayTypes) {
    parsers[typarray] = (text) => types.arrayParser(text, parsers[oid], typarray);
  }
  const queryOf =
    (send: (sql: string, params: unknown[]) => Request) =>
    async <T>(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
      try {
        return typedResult<T>(await ask<TextResult>(send(sql, params)), parsers, options);
      } catch (e) {
        // As PGlite's own errors carry them, for the adapter's error mapping and for logs.
        throw Object.assign(e as Error, { query: sql, params, queryOptions: options });
      }
    };

  let openTransactions = 0;
  const statements = {
    query: queryOf((sql, params) => ({ op: "query", sql, params })),
    exec: (sql: string) => ask<Results[]>({ op: "exec", sql }),
    transaction: async <T>(callback: (tx: Transaction) => Promise<T>): Promise<T> => {
      const id = ++nextId;
      // The database's thread holds a transaction's statements until it has begun, so with no other
      // transaction open the first statement travels without waiting for the BEGIN's answer: one
      // round trip fewer. A BEGIN that fails fails them, and the "end", with its error. Behind
      // another transaction the BEGIN is awaited, so that Prisma's maxWait still bounds that wait.
      const begun = ask({ op: "begin", tx: id });
      if (openTransactions > 0) await begun;
      else {
        begun.catch(() => undefined);
        // The callback runs after this call has returned its promise, as with PGlite's own: the
        // Prisma adapter's callback refers to that promise.
        await Promise.resolve();
      }
      openTransactions++;
      let closed = false;
      const tx = {
        query: queryOf((sql, params) => ({ op: "txQuery", tx: id, sql, params })),
        exec: (sql: string) => ask<Results[]>({ op: "txExec", tx: id, sql }),
        // The Prisma adapter does not await it: a failure is known to whoever awaits, never unhandled.
        rollback: () => {
          closed = true;
          const done = ask<void>({ op: "rollback", tx: id });
          done.catch(() => undefined);
          return done;
        },
        get closed() {
          return closed;
        },
      } as unknown as Transaction;
      let result: T;
      try {
        result = await callback(tx);
      } catch (e) {
        closed = true;
        await ask({ op: "end", tx: id, ok: false }).catch(() => undefined);
        throw e;
      } finally {
        openTransactions--;
      }
      closed = true;
      await ask({ op: "end", tx: id, ok: true });
      return result;
    },
  } as StatementClient;

  const maintenance: EmbeddedMaintenance = {
    runNow: () => ask<MaintenanceRound>({ op: "maintain" }),
    noteWrites: (rows) => {
      if (!broken) worker.postMessage({ id: 0, op: "noteWrites", rows });
    },
    stop: () => ask<void>({ op: "stopMaintenance" }),
  };

  return {
    statements,
    maintenance,
    alive: () => !broken && !closing,
    async close(graceMs = CLOSE_GRACE_MS) {
      closing = true;
      if (broken) {
        await worker.terminate();
        return false;
      }
      let timer: NodeJS.Timeout | undefined;
      const closed = await Promise.race([
        ask({ op: "close" }).then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(false), graceMs))),
      ]);
      clearTimeout(timer);
      await worker.terminate();
      return closed;
    },
  };
}
