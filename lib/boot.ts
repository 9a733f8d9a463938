import { loadConfig } from "./config.ts";
import { createRuntime, installRuntime, stopRuntime, type Runtime } from "./runtime.ts";
import { startEngine } from "./engine/engine.ts";
import { startWebhookRelay } from "./webhooks/relay.ts";
import { startImportWorker } from "./imports/worker.ts";
import { startRetention } from "./retention.ts";
import { startScheduler } from "./engine/scheduler.ts";
import { createFirstWorkspace } from "./workspaces.ts";
import { createSignInLink } from "./auth/sign-in-link.ts";
import { aiConfigProblem } from "./engine/llm/model-target.ts";

/** Starts the background work of a process that runs enrichment: the engine, the webhook relay, imports and schedules. */
export async function startWorkers(rt: Runtime): Promise<void> {
  await startEngine(rt);
  // Separate from the engine's queue: a slow receiver never holds up a cell.
  await startWebhookRelay(rt);
  await startImportWorker(rt);
  startRetention(rt);
  // Every such process runs one: each tick is claimed by exactly one of them.
  startScheduler(rt);
}

/**
 * How long a stop may take before the process exits anyway: supervisors (Docker, systemd) wait 10 s
 * before SIGKILL. A statement still running in the embedded database's thread then ends with the
 * process, and the next start recovers from the write-ahead log, as after any crash.
 */
export const STOP_DEADLINE_MS = 7_000;

/** Stops the runtime cleanly on SIGTERM/SIGINT, then exits, within STOP_DEADLINE_MS whatever runs. */
export function stopOnSignals(rt: Runtime, label = "server"): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[cellwright] ${label} ${signal}: stopping`);
    setTimeout(() => {
      console.error(`[cellwright] ${label} did not stop within ${STOP_DEADLINE_MS / 1000} s; exiting now`);
      process.exit(0);
    }, STOP_DEADLINE_MS).unref();
    await stopRuntime(rt).catch((e) => console.error(`[cellwright] ${label} shutdown failed:`, e));
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

/**
 * The first start (no workspace at all): creates the workspace and prints one line with a
 * one-time sign-in link. The token is never printed again; `npm run cli -- sign-in-link` makes another.
 */
export async function printFirstStartLink(rt: Runtime, log: (line: string) => void = console.log): Promise<void> {
  const ws = await createFirstWorkspace(rt.db.prisma, rt.config.initialCredits);
  if (!ws) return;
  const link = await createSignInLink(rt.db.prisma, rt.config, ws.name);
  log(`Sign in: ${link.url}`);
}

/**
 * Builds the server's runtime once, at start, and installs it for every route bundle. With
 * WORKER_IN_PROCESS=false (PostgreSQL) enrichment is left to `npm run worker`.
 */
export async function boot(): Promise<void> {
  const starting = (async () => {
    const rt = await createRuntime(loadConfig(process.env));
    // Now rather than at the first secret: a first start makes DATA_DIR's key, a bad one says so.
    rt.secrets.key();
    if (rt.config.workerInProcess) await startWorkers(rt);
    return rt;
  })();
  installRuntime(starting);
  const rt = await starting;
  stopOnSignals(rt);
  await printFirstStartLink(rt);
  const aiProblem = aiConfigProblem(rt.config);
  if (aiProblem) console.warn(`[cellwright] configuration: ${aiProblem}`);
  console.log(`[cellwright] ready (${rt.db.vendor}, queue: ${rt.queue.name})`);
}
