// A process on an embedded database whose backend is broken mid-statement, for the PANIC suite:
// it should exit with EXIT_DATABASE_PANIC on its own, for its supervisor to start it again.
import { openDatabase } from "../../lib/db/database.ts";

const db = await openDatabase({ kind: "pglite-memory" });
await db.exec(
  "CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t SELECT generate_series(1, 60000); SET work_mem = '64kB'",
);
// A JavaScript exception out of the backend's file layer while a sort spills to disk.
const fs = (db.pglite as unknown as { mod: { FS: { write: (...a: unknown[]) => unknown } } }).mod.FS;
const write = fs.write;
fs.write = () => {
  fs.write = write;
  throw new RangeError("Array buffer allocation failed");
};
const answer = await db
  .read("SELECT count(*) FROM (SELECT id::text AS k FROM t ORDER BY 1) s", [])
  .catch((e: Error) => e.name);
console.log(`answered ${JSON.stringify(answer)}`);
setTimeout(() => {
  console.log("still running");
  process.exit(0);
}, 10_000).unref();
await new Promise((r) => setTimeout(r, 10_000));
