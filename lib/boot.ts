import { getRuntime, onRuntimeStart, stopRuntime } from "./runtime.ts";
import { startEngine } from "./engine/engine.ts";
import { startWebhookRelay } from "./webhooks/relay.ts";

/** Brings the process runtime up at server start and takes it down cleanly on SIGTERM/SIGINT. */
export async function boot(): Promise<void> {
  onRuntimeStart(async (rt) => {
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
