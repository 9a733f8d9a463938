import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@electric-sql/pglite";
import { type EmbeddedThread, startEmbeddedThread } from "../../lib/db/embedded-thread.ts";

// A transaction on the embedded database's thread: its first statement is sent with its BEGIN,
// without waiting for the BEGIN's answer (one round trip fewer), unless another transaction is
// open, when the BEGIN is awaited as before. Either way the statements run in order inside the
// transaction, an error rolls all of it back and reaches the caller with its code.

let db: EmbeddedThread;
beforeAll(async () => {
  db = await startEmbeddedThread({ onPanic: () => undefined });
  await db.statements.exec("CREATE TABLE t (id int PRIMARY KEY, at serial)");
});
afterAll(() => db.close());

const ids = async () =>
  (await db.statements.query<{ id: number }>("SELECT id FROM t ORDER BY at")).rows.map((r) => r.id);
const clear = () => db.statements.exec("DELETE FROM t");

describe("a transaction on the embedded database's thread", () => {
  it("starts its callback before the BEGIN is answered, and runs its statements in order inside it", async () => {
    await clear();
    // The database is busy: the BEGIN cannot be answered before this statement has ended.
    let busyEnded = false;
    const busy = db.statements.query("SELECT pg_sleep(0.5)").then(() => (busyEnded = true));
    let startedWhileBusy: boolean | undefined;
    const result = await db.statements.transaction(async (tx) => {
      startedWhileBusy = !busyEnded;
      await tx.query("INSERT INTO t (id) VALUES ($1)", [1]);
      await tx.query("INSERT INTO t (id) VALUES ($1)", [2]);
      return (await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM t")).rows[0].n;
    });
    await busy;
    expect(startedWhileBusy).toBe(true);
    expect(result).toBe(2);
    expect(await ids()).toEqual([1, 2]);
  });

  it("rolls the whole transaction back on an error in the middle, whose code reaches the caller", async () => {
    await clear();
    await db.statements.query("INSERT INTO t (id) VALUES (10)");
    let after = false;
    const e = await db.statements
      .transaction(async (tx) => {
        await tx.query("INSERT INTO t (id) VALUES (11)");
        await tx.query("INSERT INTO t (id) VALUES (10)");
        after = true;
      })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(messages.DatabaseError);
    expect(e).toMatchObject({ code: "23505", query: "INSERT INTO t (id) VALUES (10)" });
    expect(after).toBe(false);
    expect(await ids()).toEqual([10]);
  });

  it("rolls back the statements that ran before the callback threw, and rethrows its error", async () => {
    await clear();
    const e = await db.statements
      .transaction(async (tx) => {
        await tx.query("INSERT INTO t (id) VALUES (20)");
        throw new Error("changed my mind");
      })
      .catch((x: unknown) => x);
    expect((e as Error).message).toBe("changed my mind");
    expect(await ids()).toEqual([]);
  });

  it("waits for the BEGIN behind another open transaction, which ends first", async () => {
    await clear();
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = db.statements.transaction(async (tx) => {
      await tx.query("INSERT INTO t (id) VALUES (30)");
      order.push("first inserted");
      await gate;
      order.push("first ends");
    });
    while (order.length === 0) await new Promise((r) => setTimeout(r, 10));
    const second = db.statements.transaction(async (tx) => {
      order.push("second begun");
      await tx.query("INSERT INTO t (id) VALUES (31)");
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(order).toEqual(["first inserted"]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["first inserted", "first ends", "second begun"]);
    expect(await ids()).toEqual([30, 31]);
  });
});
