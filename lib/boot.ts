import { getRuntime, onRuntimeStart, stopRuntime } from "./runtime.ts";
import { startEngine } from "./engine/engine.ts";
import { startWebhookRelay } from "./webhooks/relay.ts";
import { startScaleOut } from "./jobs/pgboss-services.ts";

/** Brings the process runtime up at server start and takes it down cleanly on SIGTERM/SIGINT. */
export async function boot(): Promise<void> {
  onRuntimeStart(async (rt) => {
    // On PostgreSQL every process, web or worker, writes cell jobs and shares events; the
    // enrichment itself runs here unless WORKER_IN_PROCESS=false leaves it to `npm run worker`.
    await startScaleOut(rt);
    if (!rt.config.workerInProcess) return;
    await startEngine(rt);
    // Separate from the engine's queue: a slow receiver never holds up a cell.
    await startWebhookRelay(rt);
  });
  const rt = await getRuntime();
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[cellwright] ${signal}: stopping`);
    await stopRuntime(rt).catch((e) => console.error("[cellwright] shutdown failed:", e));
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  console.log(`[cellwright] ready (${rt.db.vendor})`);
}
