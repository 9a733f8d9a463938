// A process on an embedded database whose backend is broken mid-statement, for the PANIC suite:
// it should exit with EXIT_DATABASE_PANIC on its own, for its supervisor to start it again.
import path from "node:path";
import { embeddedDatabase, exitAfterPanic } from "../../lib/db/database.ts";

// The real thread, with a backend whose next write throws (panic-worker.ts).
const db = await embeddedDatabase({
  onPanic: exitAfterPanic,
  workerFile: path.join(import.meta.dirname, "panic-worker.ts"),
});
// The sort spills to disk: the write that throws.
const answer = await db
  .read("SELECT count(*) FROM (SELECT id::text AS k FROM t ORDER BY 1) s", [])
  .catch((e: Error) => e.name);
console.log(`answered ${JSON.stringify(answer)}`);
setTimeout(() => {
  console.log("still running");
  process.exit(0);
}, 10_000).unref();
await new Promise((r) => setTimeout(r, 10_000));
