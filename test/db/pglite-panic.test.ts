import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { EXIT_DATABASE_PANIC } from "../../lib/db/database.ts";
import { preparedStatementClient, StatementCut } from "../../lib/db/pglite-statements.ts";

// The embedded database has one connection, shared by every request, the engine and the workers.
// A statement of a transaction must never run after that transaction has ended (it would run in
// whatever the connection does next), and a PANIC must be noticed, not met by every later call.

let pglite: PGlite | undefined;
afterEach(async () => {
  await pglite?.close().catch(() => undefined);
  pglite = undefined;
});

async function open(onPanic?: (e: Error) => void) {
  pglite = new PGlite();
  await pglite.exec("CREATE TABLE t (id int PRIMARY KEY)");
  return { pglite, client: preparedStatementClient(pglite, { onPanic }) };
}

describe("the embedded database's one connection", () => {
  it("refuses a transaction's statement that waited while the transaction was rolled back", async () => {
    const { pglite, client } = await open();
    let late: unknown;
    await client.transaction(async (tx) => {
      await tx.query("INSERT INTO t VALUES (1)");
      // As the Prisma adapter rolls back: without awaiting, while a statement may be on its way.
      const rollback = tx.rollback();
      late = await tx.query("INSERT INTO t VALUES (2)").catch((e: unknown) => e);
      await rollback;
    });
    expect(late).toBeInstanceOf(Error);
    expect((late as Error).message).toBe("Transaction is closed");
    expect((await pglite.query("SELECT count(*)::int AS n FROM t")).rows).toEqual([{ n: 0 }]);
    expect(pglite.isInTransaction()).toBe(false);
  });

  it("runs a transaction's statements in order with statements outside it waiting", async () => {
    const { client } = await open();
    const order: string[] = [];
    const inside = client.transaction(async (tx) => {
      await tx.query("INSERT INTO t VALUES (1)");
      order.push("in 1");
      await tx.query("INSERT INTO t VALUES (2)");
      order.push("in 2");
    });
    const outside = client
      .query<{ n: number }>("SELECT count(*)::int AS n FROM t")
      .then((r) => order.push(`out ${r.rows[0].n}`));
    await Promise.all([inside, outside]);
    expect(order).toEqual(["in 1", "in 2", "out 2"]);
  });

  // A JavaScript exception thrown out of the backend mid-statement (here from its file layer, as a
  // failed allocation would): PGlite swallows it, the statement answers no rows, and the backend
  // is broken: its next statements answer nothing and then PANIC (ERRORDATA_STACK_SIZE exceeded).
  async function breakMidStatement(pglite: PGlite, run: (sql: string) => Promise<unknown>) {
    await pglite.exec("INSERT INTO t SELECT generate_series(2, 60000)");
    await pglite.exec("SET work_mem = '64kB'"); // the sort below writes a temporary file
    const fs = (pglite as unknown as { mod: { FS: { write: (...a: unknown[]) => unknown } } }).mod.FS;
    const write = fs.write;
    fs.write = () => {
      fs.write = write;
      throw new RangeError("Array buffer allocation failed");
    };
    const outcome = await run("SELECT count(*) FROM (SELECT id::text AS k FROM t ORDER BY 1) s").catch(
      (e: unknown) => e,
    );
    expect(fs.write).toBe(write);
    return outcome;
  }

  it("fails the statement cut short, rather than answering no rows, and then every call at once", async () => {
    const panics: Error[] = [];
    const { pglite, client } = await open((e) => panics.push(e));
    const cut = await breakMidStatement(pglite, (sql) => client.query(sql));
    expect(cut).toBeInstanceOf(StatementCut);
    expect(panics).toEqual([cut]);
    await expect(client.query("SELECT 1")).rejects.toBe(cut);
    await expect(client.exec("SELECT 1")).rejects.toBe(cut);
    await expect(client.transaction((tx) => tx.query("SELECT 1"))).rejects.toBe(cut);
    expect(panics).toHaveLength(1);
  });

  it("notices a backend broken behind its back at its next statement, and its PANIC, once", async () => {
    const panics: Error[] = [];
    const { pglite, client } = await open((e) => panics.push(e));
    // PGlite's own query: the exception is swallowed and the count comes back empty.
    expect(await breakMidStatement(pglite, (sql) => pglite.query(sql).then((r) => r.rows))).toEqual([]);
    const first = await client.transaction((tx) => tx.query("SELECT 1")).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(Error);
    expect(panics).toEqual([first]);
    // Without this client the backend goes on to PANIC on every statement, never to recover.
    const again = await pglite.query("SELECT 1").catch((e: unknown) => e);
    expect(again).toMatchObject({ severity: "PANIC" });
    await expect(client.query("SELECT 1")).rejects.toBe(first);
    expect(panics).toHaveLength(1);
  });
});

describe("a server whose embedded database broke", () => {
  it("exits with status 70 for its supervisor to start it again", { timeout: 120_000 }, async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "test/db/panic-process.ts"], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const code = await new Promise<number | null>((r) => child.once("exit", r));
    expect(code, out).toBe(EXIT_DATABASE_PANIC);
    expect(out).toContain('answered "StatementCut"');
    expect(out).toContain("the embedded database stopped");
    expect(out).not.toContain("still running");
  });
});
