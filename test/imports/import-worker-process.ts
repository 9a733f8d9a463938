// A process that runs only the import worker, for the kill -9 suite: it opens the database named
// by the environment (DATA_DIR or DATABASE_URL), claims imports, and prints each committed batch
// so the suite knows when to kill it.
import { loadConfig } from "../../lib/config.ts";
import { createRuntime } from "../../lib/runtime.ts";
import { startImportWorker } from "../../lib/imports/worker.ts";

const rt = await createRuntime(loadConfig(process.env), { queue: "database" });
rt.bus.on((e) => {
  if (e.type === "import.updated") console.log(`progress ${e.status} ${e.linesDone}`);
});
await startImportWorker(rt, { pollMs: 50, leaseMs: 2_000 });
console.log("ready");
