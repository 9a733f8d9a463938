import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { preparedStatementClient, type StatementClient } from "../../lib/db/pglite-statements.ts";

// The embedded database's statement cache: each SQL text prepared once and then only bound and
// executed, with PGlite's own answers, errors, transactions and ordering.

let pglite: PGlite;
let client: StatementClient;

const prepared = async () =>
  (
    await pglite.query<{ statement: string }>("SELECT statement FROM pg_prepared_statements ORDER BY statement")
  ).rows.map((r) => r.statement);

beforeAll(async () => {
  pglite = new PGlite();
  await pglite.exec("CREATE TABLE t (id int PRIMARY KEY, name text, tags text[], doc jsonb)");
  client = preparedStatementClient(pglite, { capacity: 3 });
});
afterAll(() => pglite.close());

describe("the prepared-statement client", () => {
  it("answers as PGlite does, preparing each text once", async () => {
    const insert = "INSERT INTO t (id, name, tags, doc) VALUES ($1, $2, $3, $4) RETURNING id, name, tags, doc";
    const a = await client.query(insert, [1, "one", ["x", "y"], { k: 1 }]);
    const b = await client.query(insert, [2, null, [], null]);
    expect(a.rows).toEqual([{ id: 1, name: "one", tags: ["x", "y"], doc: { k: 1 } }]);
    expect(b.rows).toEqual([{ id: 2, name: null, tags: [], doc: null }]);
    expect(b.affectedRows).toBe(1);
    expect(await prepared()).toEqual([insert]);

    const mine = await client.query("SELECT id, name FROM t ORDER BY id", [], { rowMode: "array" });
    const theirs = await pglite.query("SELECT id, name FROM t ORDER BY id", [], { rowMode: "array" });
    expect(mine.rows).toEqual(theirs.rows);
    expect(mine.fields).toEqual(theirs.fields);
  });

  it("keeps at most its capacity of statements, dropping the least recently used", async () => {
    const q = (n: number) => `SELECT ${n} AS n, count(*) FROM t`;
    for (const n of [1, 2, 3]) await client.query(q(n));
    await client.query(q(1)); // used again: q(2) is now the oldest
    await client.query(q(4));
    expect(await prepared()).toEqual([q(1), q(3), q(4)].sort());
    expect((await client.query<{ n: number }>(q(2))).rows[0].n).toBe(2);
  });

  it("rejects a bad statement or value with PostgreSQL's error and goes on working", async () => {
    await expect(client.query("SELEC nothing")).rejects.toMatchObject({ code: "42601", query: "SELEC nothing" });
    await expect(client.query("SELECT $1::int AS n", ["not a number"])).rejects.toMatchObject({ code: "22P02" });
    await expect(client.query("INSERT INTO t (id) VALUES ($1)", [1])).rejects.toMatchObject({ code: "23505" });
    expect((await client.query<{ n: number }>("SELECT $1::int AS n", [5])).rows).toEqual([{ n: 5 }]);
    expect(await prepared()).not.toContain("SELEC nothing");
  });

  it("prepares again a statement whose table changed shape", async () => {
    const all = "SELECT * FROM t WHERE id = $1";
    expect(Object.keys((await client.query(all, [1])).rows[0] as object)).toEqual(["id", "name", "tags", "doc"]);
    await pglite.exec("ALTER TABLE t ADD COLUMN extra int DEFAULT 9");
    expect((await client.query(all, [1])).rows[0]).toMatchObject({ id: 1, extra: 9 });
  });

  it("runs transactions that commit, roll back, and hold other queries until they end", async () => {
    const order: string[] = [];
    let outside: Promise<unknown> = Promise.resolve();
    await client.transaction(async (tx) => {
      await tx.query("INSERT INTO t (id, name) VALUES ($1, $2)", [10, "in tx"]);
      outside = client
        .query<{ n: number }>("SELECT count(*)::int AS n FROM t WHERE id = 10")
        .then((r) => order.push(`outside saw ${r.rows[0].n}`));
      await new Promise((r) => setTimeout(r, 20));
      order.push("commit");
    });
    await outside;
    expect(order).toEqual(["commit", "outside saw 1"]);

    await client.transaction(async (tx) => {
      await tx.query("INSERT INTO t (id, name) VALUES ($1, $2)", [11, "rolled back"]);
      await tx.rollback();
    });
    await expect(
      client.transaction(async (tx) => {
        await tx.query("INSERT INTO t (id, name) VALUES ($1, $2)", [12, "failed"]);
        await tx.query("INSERT INTO t (id, name) VALUES ($1, $2)", [12, "duplicate"]);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    const ids = (await client.query<{ id: number }>("SELECT id FROM t WHERE id >= 10 ORDER BY id")).rows.map(
      (r) => r.id,
    );
    expect(ids).toEqual([10]);
    expect(await prepared()).toContain("INSERT INTO t (id, name) VALUES ($1, $2)");
  });
});
