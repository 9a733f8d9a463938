import type { Prisma } from "../db/database.ts";
import { returnLeases } from "../domain/cells/index.ts";
import { orphanedReadyCells, type CellJobs } from "./pgboss-jobs.ts";

const RECONCILE_LOCK = 727_276;

/**
 * The safety net of the scale-out queue, run by every worker at start and then periodically (one
 * at a time, by advisory lock):
 * - cells left running under an expired lease (their worker died) become pending again, counting
 *   an attempt, and end in error once they have kept killing their worker `maxAttempts` times;
 * - ready pending cells with no live job get one: cells a process made pending or ready and died
 *   before queueing, cells written by a process without the queue engine (an import), and the
 *   cells just reclaimed.
 */
export async function reconcile(
  prisma: Prisma,
  jobs: CellJobs,
  maxAttempts: number,
  limit = 5_000,
): Promise<{ reclaimed: number; requeued: number }> {
  return prisma.$transaction(
    async (tx) => {
      const [{ locked }] = await tx.$queryRawUnsafe<{ locked: boolean }[]>(
        `SELECT pg_try_advisory_xact_lock(${RECONCILE_LOCK}) AS locked`,
      );
      if (!locked) return { reclaimed: 0, requeued: 0 };
      const reclaimed = await returnLeases(tx, { expiredOnly: true, maxAttempts, limit });
      const orphans = await orphanedReadyCells(tx, limit);
      await jobs.insert(tx, orphans);
      return { reclaimed, requeued: orphans.length };
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
}
