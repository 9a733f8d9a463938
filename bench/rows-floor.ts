import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import pg from "pg";
import { openDatabase, type Database } from "../lib/db/database.ts";

// The floors of bench:rows: the same work done directly with the database driver (the embedded
// database's thread asked without Prisma, or node-postgres), on the same database the server used.

export interface Driver {
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** Opens the database the server used (for PGlite: after the server has let go of DATA_DIR). */
export async function openDriver(target: { dataDir: string } | { url: string }): Promise<Driver> {
  if ("url" in target) {
    const pool = new pg.Pool({ connectionString: target.url, max: 2 });
    return { query: async (sql, params) => (await pool.query(sql, params)).rows, close: () => pool.end() };
  }
  const db: Database = await openDatabase({ kind: "pglite", dataDir: target.dataDir });
  return {
    query: (sql, params) => db.read<Record<string, unknown>>(sql, params ?? []),
    close: () => db.close(),
  };
}

/** Raw SELECT of a sheet's rows in order, then JSON.stringify: the floor of Get Rows. */
export async function selectAndStringify(driver: Driver, sheetId: string): Promise<number> {
  const rows = await driver.query(`SELECT id, "values" FROM rows WHERE sheet_id = $1 ORDER BY seq`, [sheetId]);
  return JSON.stringify({ rows }).length;
}

/** One INSERT of prepared rows (id and values by column id): the floor of Add Rows. */
export async function insertRows(
  driver: Driver,
  sheetId: string,
  rows: { id: string; values: Record<string, string> }[],
): Promise<void> {
  await driver.query(
    `INSERT INTO rows (id, sheet_id, "values") SELECT id, $1, v FROM unnest($2::text[], $3::jsonb[]) AS t(id, v)`,
    [sheetId, rows.map((r) => r.id), rows.map((r) => JSON.stringify(r.values))],
  );
}

/** A fresh PostgreSQL database for one bench run, dropped afterwards. */
export async function freshPostgres(adminUrl: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `cw_bench_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  if (process.env.BENCH_LOG_STATEMENTS) await admin.query(`ALTER DATABASE ${name} SET log_min_duration_statement = 0`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Whether something answers at the PostgreSQL URL's host and port (the benches then run on it too). */
export const postgresAnswers = (adminUrl: string) =>
  new Promise<boolean>((resolve) => {
    const url = new URL(adminUrl);
    const s = connect({ host: url.hostname, port: Number(url.port || 5432), timeout: 1_000 });
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
    s.once("timeout", () => (s.destroy(), resolve(false)));
  });
