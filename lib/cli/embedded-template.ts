// `node lib/cli/launch.mjs embedded-template <dir>`: makes a new embedded database cluster in dir
// and applies every migration (lib/db/embedded-cluster.ts runs it in a child process of its own).
import { openEmbeddedCluster } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";

try {
  const db = await openEmbeddedCluster(process.argv[2]);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
} catch (e) {
  console.error((e as Error).message);
  process.exit(1);
}
