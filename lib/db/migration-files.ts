import path from "node:path";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";

// The hand-written SQL migrations in prisma/migrations, as files: what migrate.ts applies and
// what names the embedded database's template (embedded-cluster.ts).

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function migrationsDir(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), "prisma", "migrations");
}

export function readMigrations(dir = migrationsDir()): Migration[] {
  return readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}
