import { type Parsers, textResultOf, typedResult } from "./pglite-results.ts";
import { type PGlite, parse, protocol, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";

// PGlite's own `query` parses, plans and describes every statement anew (an unnamed statement each
// call): six trips into the database per query, and for the engine's context statement 4.3 ms of
// planning against 1.5 ms of execution. This client keeps each distinct SQL text as a named
// prepared statement, so a repeated query is one trip: bind, describe, execute and sync together,
// and PostgreSQL may reuse a generic plan (its usual rule: after five custom plans, when no dearer).
// It is what the Prisma adapter is given; everything else may keep using the PGlite instance.

/** The members of PGlite the adapter calls. */
export type StatementClient = Pick<PGlite, "query" | "exec" | "transaction">;

interface Prepared {
  name: string;
  paramTypes: number[];
}

// PGlite's mutexes: queries outside a transaction wait for any open transaction, as its own do.
type Exclusive = {
  _checkReady(): Promise<void>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
};

/** A statement whose tables changed shape since it was prepared ("cached plan must not change result type"). */
const STALE_PLAN = "0A000";

export interface StatementClientOptions {
  capacity?: number;
  /**
   * Called once, when the database first answers PANIC. PGlite's backend is then unusable until
   * the process starts it again (every later statement fails, often with another PANIC); from
   * then on this client fails every call at once with that first error.
   */
  onPanic?: (error: Error) => void;
  /**
   * Answers rows as arrays of the backend's text, parsed by nobody (TextResult): for the
   * database's thread, whose caller parses them on its own side (embedded-thread.ts).
   */
  text?: boolean;
}

export function preparedStatementClient(
  pglite: PGlite,
  { capacity = 64, onPanic, text = false }: StatementClientOptions = {},
): StatementClient {
  const cache = new Map<string, Prepared>();
  const exclusive = pglite as unknown as Exclusive;
  let counter = 0;
  let panicked: Error | undefined;

  // Every way into the database goes through here: a PANIC is noticed wherever it surfaces.
  const guarded = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (panicked) throw panicked;
    try {
      return await fn();
    } catch (e) {
      if (!panicked && (e instanceof StatementCut || (e as { severity?: string }).severity === "PANIC")) {
        panicked = e as Error;
        onPanic?.(panicked);
      }
      throw e;
    }
  };

  const send = (...messages: Uint8Array[]) => pglite.execProtocolStream(concat(messages), { syncToFs: false });

  async function prepare(sql: string, options?: QueryOptions): Promise<Prepared> {
    const name = `cw${++counter}`;
    const described = await send(
      protocol.serialize.parse({ name, text: sql, types: options?.paramTypes }),
      protocol.serialize.describe({ type: "S", name }),
      protocol.serialize.sync(),
    );
    const prepared = { name, paramTypes: parse.parseDescribeStatementResults(described) };
    cache.set(sql, prepared);
    if (cache.size > capacity) {
      const [oldestSql, oldest] = cache.entries().next().value!;
      cache.delete(oldestSql);
      await send(protocol.serialize.close({ type: "S", name: oldest.name }), protocol.serialize.sync());
    }
    return prepared;
  }

  async function run<T>(
    sql: string,
    params: unknown[] = [],
    options?: QueryOptions,
    retried = false,
  ): Promise<Results<T>> {
    let prepared = cache.get(sql);
    if (prepared) {
      cache.delete(sql); // re-inserted last: the Map's order is the LRU order
      cache.set(sql, prepared);
    } else {
      prepared = await prepare(sql, options).catch((e) => rethrow(e, sql, params, options));
    }
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serialize = options?.serializers?.[prepared.paramTypes[i]] ?? pglite.serializers[prepared.paramTypes[i]];
      return serialize ? serialize(value) : String(value);
    });
    let messages;
    try {
      messages = await send(
        protocol.serialize.bind({ statement: prepared.name, values }),
        protocol.serialize.describe({ type: "P" }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      );
    } catch (e) {
      if ((e as { code?: string }).code === STALE_PLAN && !retried && !pglite.isInTransaction()) {
        cache.delete(sql);
        await send(protocol.serialize.close({ type: "S", name: prepared.name }), protocol.serialize.sync());
        return run(sql, params, options, true);
      }
      return rethrow(e, sql, params, options);
    }
    if (!messages.some((m) => FINISHED.has(m.name))) throw new StatementCut(sql);
    const answer = textResultOf(messages);
    return text ? (answer as unknown as Results<T>) : typedResult<T>(answer, pglite.parsers as Parsers, options);
  }

  const query = async <T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> => {
    await exclusive._checkReady();
    return exclusive._runExclusiveTransaction(() =>
      exclusive._runExclusiveQuery(async () => {
        const result = await run<T>(sql, params, options);
        await pglite.syncToFs();
        return result;
      }),
    );
  };

  return {
    query: (sql, params, options) => guarded(() => query(sql, params, options)),
    exec: (sql, options) => guarded(() => pglite.exec(sql, options)),
    transaction: (callback) =>
      guarded(() =>
        pglite.transaction((tx) => {
          let rolledBack = false;
          const wrapped: Transaction = {
            ...tx,
            rollback: () => {
              rolledBack = true;
              return tx.rollback();
            },
            // Closed is asked again once this statement has the connection: the adapter may end
            // the transaction (a rollback it does not await) while the statement waits its turn,
            // and the statement must then fail, not run in whatever comes next.
            query: (sql, params, options) =>
              guarded(() =>
                exclusive._runExclusiveQuery(() => {
                  if (rolledBack || tx.closed) throw new Error("Transaction is closed");
                  return run(sql, params, options);
                }),
              ),
            get closed() {
              return tx.closed;
            },
          };
          return callback(wrapped);
        }),
      ),
  };
}

/** The messages that end an Execute; with none of them and no error, the statement never finished. */
const FINISHED = new Set(["commandComplete", "emptyQueryResponse", "portalSuspended"]);

/**
 * A JavaScript exception thrown out of the backend mid-statement (a failed allocation in its file
 * layer, say) is swallowed by PGlite: the statement answers nothing, as if it had found no rows,
 * and the backend is left broken, to PANIC a few statements later. This client says so at once.
 */
export class StatementCut extends Error {
  constructor(sql: string) {
    super(`The embedded database stopped in the middle of a statement and cannot go on: ${sql.slice(0, 200)}`);
    this.name = "StatementCut";
  }
}

// As PGlite's own errors carry them, for the adapter's error mapping and for logs.
function rethrow(e: unknown, sql: string, params: unknown[], options?: QueryOptions): never {
  if (e && typeof e === "object" && "code" in e) Object.assign(e, { query: sql, params, queryOptions: options });
  throw e;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
