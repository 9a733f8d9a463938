import type { Runtime } from "./runtime.ts";

/**
 * Liveness and readiness: the database answers, every migration is applied, and the queue is
 * reachable (the queue engine's on PostgreSQL; on the embedded database the cells table is the
 * queue, so it is reachable with the database).
 */
export async function healthReport(rt: Runtime) {
  let database = false;
  let pending: string[] = [];
  try {
    database = await rt.db.ping();
    pending = database ? await rt.pendingMigrations() : [];
  } catch {
    database = false;
  }
  const queue = { engine: rt.queue.name, reachable: await rt.queue.reachable() };
  return {
    ok: database && pending.length === 0 && queue.reachable,
    database,
    vendor: rt.db.vendor,
    pendingMigrations: pending,
    queue,
  };
}
