import pg from "pg";
import { randomBytes } from "node:crypto";
import type { DatabaseTarget } from "../../lib/db/database.ts";

/**
 * Each test file gets its own database: an in-memory PGlite by default, or a fresh PostgreSQL
 * database when TEST_DATABASE_URL is set (the same suites then run against Postgres).
 */
export async function freshDatabaseTarget(): Promise<{ target: DatabaseTarget; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return { target: { kind: "pglite-memory" }, drop: async () => undefined };
  const name = `cw_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    target: { kind: "postgres", url: url.toString(), poolSize: 5 },
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
