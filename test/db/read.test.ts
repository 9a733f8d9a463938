import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { freshDatabaseTarget } from "../support/database.ts";

// The database port's `read`: one statement outside any transaction, answered by the driver
// (PGlite's statement cache, or node-postgres), shaped as Prisma's raw queries are for the types
// the hot reads select; and `volatile`, its twin for commits that need not wait for the disk.

let db: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  const fresh = await freshDatabaseTarget();
  drop = fresh.drop;
  db = await openDatabase(fresh.target);
  await db.exec(`CREATE TABLE t (id text PRIMARY KEY, doc jsonb)`);
  await db.exec(`INSERT INTO t VALUES ('x', '{"k": [1, "two"]}'), ('z', NULL)`);
});
afterAll(async () => {
  await db.close();
  await drop();
});

describe("db.read", () => {
  it("answers text, json, jsonb and null as values, as Prisma's raw query does", async () => {
    const sql = `SELECT id, doc, json_build_object('a', 1, 'b', json_agg(id)) AS j, NULL::text AS n FROM t WHERE id = ANY($1::text[]) GROUP BY id, doc ORDER BY id`;
    const rows = await db.read(sql, [["x", "z", "absent"]]);
    expect(rows).toEqual([
      { id: "x", doc: { k: [1, "two"] }, j: { a: 1, b: ["x"] }, n: null },
      { id: "z", doc: null, j: { a: 1, b: ["z"] }, n: null },
    ]);
    expect(rows).toEqual(await db.prisma.$queryRawUnsafe(sql, ["x", "z", "absent"]));
  });

  it("rejects a bad statement with the database's error and goes on answering", async () => {
    await expect(db.read(`SELECT nope FROM t`, [])).rejects.toMatchObject({ code: "42703" });
    expect(await db.read(`SELECT count(*)::int AS n FROM t`, [])).toEqual([{ n: 2 }]);
  });

  it("never reads inside an open transaction: PostgreSQL answers from before its commit, PGlite once it has ended", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tx = db.prisma.$transaction(async (t) => {
      await t.$executeRawUnsafe(`INSERT INTO t VALUES ('y', NULL)`);
      await gate;
    });
    await new Promise((r) => setTimeout(r, 50));
    const read = db.read<{ id: string }>(`SELECT id FROM t WHERE id = 'y'`, []);
    setTimeout(release, 50);
    await tx;
    expect(await read).toEqual(db.vendor === "pglite" ? [{ id: "y" }] : []);
  });
});

describe("db.volatile", () => {
  it("commits each statement on its own, seen at once by other connections, without waiting for the disk", async () => {
    const marked = `/* prepared */ INSERT INTO t VALUES ($1, $2) RETURNING id`;
    expect(await db.volatile(marked, ["v1", { k: 1 }])).toEqual([{ id: "v1" }]);
    expect(await db.volatile(marked, ["v2", null])).toEqual([{ id: "v2" }]);
    expect(await db.read(`SELECT id, doc FROM t WHERE id LIKE 'v%' ORDER BY id`, [])).toEqual([
      { id: "v1", doc: { k: 1 } },
      { id: "v2", doc: null },
    ]);
    const [{ setting }] = await db.volatile<{ setting: string }>(
      `SELECT current_setting('synchronous_commit') AS setting`,
      [],
    );
    // PGlite has one writer, in this process; nothing waits on its commits but this process.
    if (db.vendor === "postgres") expect(setting).toBe("off");
    await expect(db.volatile(`SELECT nope FROM t`, [])).rejects.toMatchObject({ code: "42703" });
  });
});
