import { loadConfig, type Config } from "./config.ts";
import { openDatabase, targetFromConfig, type Database, type DatabaseTarget } from "./db/database.ts";
import { migrate } from "./db/migrate.ts";
import { EventBus } from "./events.ts";
import { seedFromConfig } from "./workspaces.ts";
import type { CellJobs } from "./jobs/pgboss-jobs.ts";

/**
 * Everything a request or a worker needs, built from an explicit Config. One per process:
 * Next.js bundles route handlers separately, so the instance lives on globalThis for all
 * bundles (and the engine) to share one database handle.
 */
export interface Runtime {
  config: Config;
  db: Database;
  bus: EventBus;
  /** Scale-out only: the queue engine's cell jobs, written in the transactions that make cells pending. */
  cellJobs?: CellJobs;
  /** Background services (engine, webhook relay) register their stop functions here. */
  services: { name: string; stop: () => Promise<void> }[];
}

export type RuntimeStarter = (rt: Runtime) => Promise<void> | void;

const KEY = Symbol.for("cellwright.runtime");
type Slot = { promise?: Promise<Runtime>; starters: RuntimeStarter[] };
const slot: Slot = ((globalThis as Record<symbol, Slot>)[KEY] ??= { starters: [] });

export async function createRuntime(config: Config, target: DatabaseTarget = targetFromConfig(config)): Promise<Runtime> {
  const db = await openDatabase(target);
  await migrate(db);
  const rt: Runtime = { config, db, bus: new EventBus(), services: [] };
  await seedFromConfig(rt);
  return rt;
}

/** Registers work to start with the process runtime (the engine, the webhook relay). */
export function onRuntimeStart(starter: RuntimeStarter): void {
  slot.starters.push(starter);
}

export function getRuntime(): Promise<Runtime> {
  slot.promise ??= (async () => {
    const rt = await createRuntime(loadConfig(process.env));
    for (const start of slot.starters) await start(rt);
    return rt;
  })().catch((e) => {
    slot.promise = undefined;
    throw e;
  });
  return slot.promise;
}

/**
 * Tests and benchmarks install their own runtime (a fresh PGlite) instead of the env one.
 * Returns a function that puts back whatever was installed before.
 */
export function installRuntime(rt: Runtime | undefined): () => void {
  const previous = slot.promise;
  slot.promise = rt ? Promise.resolve(rt) : undefined;
  return () => {
    slot.promise = previous;
  };
}

export async function stopRuntime(rt: Runtime): Promise<void> {
  for (const s of [...rt.services].reverse()) await s.stop().catch((e) => console.error(`[cellwright] stopping ${s.name}:`, e));
  await rt.db.close();
}
