// `npm run db:migrate`: applies pending migrations to the database the environment names. The
// server also migrates at start-up; this is for deploys that migrate as a separate step.
import { loadConfig } from "../config.ts";
import { openDatabase, targetFromConfig, type Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { DataDirBusyError } from "../db/data-dir-lock.ts";

let db: Database | undefined;
let code = 0;
try {
  const config = loadConfig(process.env);
  db = await openDatabase(targetFromConfig(config));
  const applied = await migrate(db);
  console.log(
    applied.length === 0
      ? `[cellwright] ${db.vendor}: the database is up to date.`
      : `[cellwright] ${db.vendor}: applied ${applied.join(", ")}.`,
  );
} catch (e) {
  console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
  code = e instanceof DataDirBusyError ? 2 : 1;
} finally {
  await db?.close().catch(() => undefined);
}
process.exit(code);
