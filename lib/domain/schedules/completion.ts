import type { Tx } from "../../db/database.ts";

// What a scheduled run found, for the schedule.completed webhook: written by the outbox in the
// transaction that finishes the run. A refresh counts its cells: checked (an answer was stored,
// done or not_found), changed (of those, the answer differed from the one before: cells.changed_at
// set since the run started), unchanged, failed (error). A find counts its candidates: checked
// (verified), changed (added as rows), unchanged (verified, not added), failed (error).

export interface ScheduleCounts {
  checked: number;
  changed: number;
  unchanged: number;
  failed: number;
  credits: number;
}

export interface ScheduleCompletion {
  schedule: { id: string; name: string | null; behavior: string; skippedCount: number };
  runId: string;
  counts: ScheduleCounts;
}

type Tally = { checked: number; changed: number; failed: number };

export async function scheduleCompletion(
  tx: Tx,
  run: { id: string; scheduleId: string; createdAt: string; creditsSpent: number },
): Promise<ScheduleCompletion> {
  const s = await tx.schedule.findUnique({
    where: { id: run.scheduleId },
    select: { name: true, behavior: true, skippedCount: true },
  });
  const isFind = (await tx.find.count({ where: { runId: run.id } })) > 0;
  const [t] = isFind
    ? await tx.$queryRawUnsafe<Tally[]>(
        `SELECT count(*) FILTER (WHERE status IN ('matched', 'rejected', 'unclear'))::int AS checked,
           count(*) FILTER (WHERE row_id IS NOT NULL)::int AS changed,
           count(*) FILTER (WHERE status = 'error')::int AS failed
         FROM find_candidates WHERE run_id = $1`,
        run.id,
      )
    : await tx.$queryRawUnsafe<Tally[]>(
        `SELECT count(*) FILTER (WHERE status IN ('done', 'not_found'))::int AS checked,
           count(*) FILTER (WHERE status IN ('done', 'not_found') AND changed_at >= $2::timestamptz)::int AS changed,
           count(*) FILTER (WHERE status = 'error')::int AS failed
         FROM cells WHERE run_id = $1`,
        run.id,
        new Date(run.createdAt),
      );
  return {
    schedule: {
      id: run.scheduleId,
      name: s?.name ?? null,
      behavior: s?.behavior ?? (isFind ? "find" : "refresh"),
      skippedCount: s?.skippedCount ?? 0,
    },
    runId: run.id,
    counts: {
      checked: t.checked,
      changed: t.changed,
      unchanged: t.checked - t.changed,
      failed: t.failed,
      credits: run.creditsSpent,
    },
  };
}
