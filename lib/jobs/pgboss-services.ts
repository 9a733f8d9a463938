import type { Runtime } from "../runtime.ts";
import { appError } from "../errors.ts";
import { startEventsBridge } from "../events-bridge.ts";
import { startCellJobs } from "./pgboss-jobs.ts";

/** The PostgreSQL URL this runtime is connected to (tests connect without DATABASE_URL set). */
export function databaseUrlOf(rt: Runtime): string {
  const url = rt.config.databaseUrl ?? rt.db.pool?.options.connectionString;
  if (!url) throw appError("internal_error", "Scale-out needs PostgreSQL (DATABASE_URL).");
  return url;
}

/**
 * Scale-out services every process on PostgreSQL runs, web or worker: the queue engine (so that
 * requests write cell jobs in their own transactions) and the events bridge (realtime across
 * processes). No-op on the embedded database, which one process owns.
 */
export async function startScaleOut(rt: Runtime): Promise<void> {
  if (rt.db.vendor !== "postgres" || rt.cellJobs) return;
  const url = databaseUrlOf(rt);
  const jobs = await startCellJobs(url);
  rt.cellJobs = jobs;
  rt.services.push({
    name: "queue engine",
    stop: async () => {
      rt.cellJobs = undefined;
      await jobs.stop();
    },
  });
  await startEventsBridge(rt, url);
}
