import type { Runtime } from "./runtime.ts";
import { pendingMigrations } from "./db/migrate.ts";

/** Liveness and readiness: the database answers and every migration is applied. */
export async function healthReport(rt: Runtime) {
  let database = false;
  let pending: string[] = [];
  try {
    await rt.db.prisma.$queryRawUnsafe("SELECT 1");
    database = true;
    pending = await pendingMigrations(rt.db);
  } catch {
    database = false;
  }
  return { ok: database && pending.length === 0, database, vendor: rt.db.vendor, pendingMigrations: pending };
}
