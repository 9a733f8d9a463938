import type { Database } from "./database.ts";
import { readMigrations } from "./migration-files.ts";

/**
 * Applies the hand-written SQL migrations in order, each in its own transaction, and records
 * them. Prisma's migrate needs a schema engine that these machines cannot download.
 */
export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  return db.withMigrationLock(async () => {
    await db.exec(`CREATE TABLE IF NOT EXISTS "_cellwright_migrations" (
      "name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL,
      "applied_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP)`);
    const rows = await db.prisma.$queryRawUnsafe<{ name: string; checksum: string }[]>(
      `SELECT "name", "checksum" FROM "_cellwright_migrations"`,
    );
    const applied = new Map(rows.map((r) => [r.name, r.checksum]));
    const done: string[] = [];
    for (const m of migrations) {
      const previous = applied.get(m.name);
      if (previous) {
        if (previous !== m.checksum) {
          throw new Error(`Migration ${m.name} was changed after it was applied; add a new migration instead.`);
        }
        continue;
      }
      const escaped = m.name.replace(/'/g, "''");
      await db.exec(
        `BEGIN;\n${m.sql}\n;INSERT INTO "_cellwright_migrations" ("name", "checksum") VALUES ('${escaped}', '${m.checksum}');\nCOMMIT;`,
      );
      done.push(m.name);
    }
    return done;
  });
}

export async function pendingMigrations(db: Database, migrations = readMigrations()): Promise<string[]> {
  const rows = await db.prisma
    .$queryRawUnsafe<{ name: string }[]>(`SELECT "name" FROM "_cellwright_migrations"`)
    .catch(() => [] as { name: string }[]);
  const applied = new Set(rows.map((r) => r.name));
  return migrations.filter((m) => !applied.has(m.name)).map((m) => m.name);
}
