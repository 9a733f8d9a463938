import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

/**
 * `COPY ... FROM STDIN` inside a Prisma transaction (PostgreSQL only). Prisma has no COPY, and its
 * transaction's connection is not handed out; the pool's clients are known by their backend's
 * pid, so the transaction names its own (`pg_backend_pid()`) and the data streams on that very
 * connection: it commits or rolls back with the transaction. Prisma sends nothing on the
 * connection meanwhile, as the transaction's callback is awaiting this.
 */
export type CopyIn = (tx: RawQuery, sql: string, chunks: Iterable<string>) => Promise<void>;

/** What COPY needs of a transaction (database.ts' Tx, named here without importing it back). */
interface RawQuery {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

type Backend = { processID: number | null };

export function copyInOver(pool: pg.Pool): CopyIn {
  const byPid = new Map<number, pg.PoolClient>();
  pool.on("connect", (client) => {
    const pid = (client as unknown as Backend).processID;
    if (pid === null) return;
    byPid.set(pid, client as pg.PoolClient);
    client.once("end", () => byPid.delete(pid));
  });
  return async (tx, sql, chunks) => {
    const [{ pid }] = await tx.$queryRawUnsafe<{ pid: number }[]>("SELECT pg_backend_pid() AS pid");
    const client = byPid.get(Number(pid));
    if (!client) throw new Error(`COPY: no pooled connection has backend ${pid}`);
    await pipeline(Readable.from(chunks, { objectMode: false }), client.query(copyFrom(sql)));
  };
}
