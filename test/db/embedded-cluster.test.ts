import { afterAll, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "../../lib/db/database.ts";
import { embeddedTemplate } from "../../lib/db/embedded-cluster.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { readMigrations } from "../../lib/db/migration-files.ts";

// The embedded database is created apart and takes its name only when complete: what a start
// killed mid-creation left behind is cleared, never opened as a cluster. It is a copy of the
// install's template, which holds every migration.

const dataDir = mkdtempSync(path.join(tmpdir(), "cw-cluster-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it("creates the cluster in a sibling directory, clearing one a killed start left, and opens it again", async () => {
  const leftover = path.join(dataDir, "pglite.creating");
  mkdirSync(path.join(leftover, "base"), { recursive: true });
  writeFileSync(path.join(leftover, "PG_VERSION"), "17\n");

  const db = await openDatabase({ kind: "pglite", dataDir });
  await db.exec("CREATE TABLE kept (a int); INSERT INTO kept VALUES (7)");
  await db.close();
  expect(existsSync(leftover)).toBe(false);
  expect(existsSync(path.join(dataDir, "pglite", "PG_VERSION"))).toBe(true);

  const again = await openDatabase({ kind: "pglite", dataDir });
  try {
    expect(await again.read<{ a: number }>("SELECT a FROM kept", [])).toEqual([{ a: 7 }]);
  } finally {
    await again.close();
  }
}, 120_000);

it("copies a new data directory from the install's template, with every migration applied", async () => {
  const template = await embeddedTemplate();
  expect(existsSync(path.join(template, "PG_VERSION"))).toBe(true);

  const fresh = mkdtempSync(path.join(tmpdir(), "cw-cluster-"));
  const db = await openDatabase({ kind: "pglite", dataDir: fresh });
  try {
    const applied = await db.prisma.$queryRawUnsafe<{ name: string }[]>(
      `SELECT name FROM "_cellwright_migrations" ORDER BY name`,
    );
    expect(applied.map((m) => m.name)).toEqual(readMigrations().map((m) => m.name));
    expect(await migrate(db)).toEqual([]);
  } finally {
    await db.close();
    rmSync(fresh, { recursive: true, force: true });
  }
}, 180_000);
