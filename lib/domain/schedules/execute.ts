import type { Tx } from "../../db/database.ts";
import type { Work } from "../../db/work.ts";
import type { Schedule } from "../../db/generated/client.ts";
import { appError } from "../../errors.ts";
import { getRun, runCells, type CellScope, type RunPolicy, type RunView } from "../runs/index.ts";
import { createFind, type FindPolicy } from "../finds/index.ts";
import { loadBase } from "../base-context.ts";
import { nextRunAt } from "./cadence.ts";
import { loadSchedule, scheduleView, type ScheduleView } from "./store.ts";
import type { RowsSelection, ScheduleFind } from "./schemas.ts";

// A schedule's executions. A tick is claimed by moving next_run_at on with a compare-and-set in
// the transaction that starts its run: of any number of processes that see the same due tick,
// one moves it and the others' statements match nothing (on PostgreSQL the others wait for the
// row and read it again), and a tick whose run fails to start rolls back and is taken again.
// The next time is computed from now, so after downtime the missed ticks run once, not once each.

export interface SchedulePolicies {
  run: RunPolicy;
  find: FindPolicy;
}

export type Execution =
  | { outcome: "started"; runId: string; queued: number }
  | { outcome: "empty"; runId: null; queued: 0 }
  | { outcome: "skipped"; runId: string; queued: 0 };

const DAY_MS = 86_400_000;

/** The enabled schedules due at `now`, earliest first. */
export async function dueSchedules(tx: Tx, now: Date, limit = 100): Promise<{ id: string; nextRunAt: Date }[]> {
  return tx.schedule.findMany({
    where: { enabled: true, nextRunAt: { lte: now } },
    orderBy: { nextRunAt: "asc" },
    take: limit,
    select: { id: true, nextRunAt: true },
  }) as Promise<{ id: string; nextRunAt: Date }[]>;
}

/** The earliest tick of any enabled schedule; null when none is due ever. */
export async function earliestTick(tx: Tx): Promise<Date | null> {
  const s = await tx.schedule.findFirst({
    where: { enabled: true, nextRunAt: { not: null } },
    orderBy: { nextRunAt: "asc" },
    select: { nextRunAt: true },
  });
  return s?.nextRunAt ?? null;
}

/** Moves the tick due at `dueAt` on to the next one after `now`; the schedule when this call won it, else null. */
async function claimTick(tx: Tx, id: string, dueAt: Date, now: Date): Promise<Schedule | null> {
  const s = await tx.schedule.findUnique({ where: { id } });
  if (!s?.enabled || s.nextRunAt?.getTime() !== dueAt.getTime()) return null;
  const next = nextRunAt(s, now, s.everySeconds ? dueAt : undefined);
  const n = await tx.$executeRawUnsafe(
    `UPDATE schedules SET next_run_at = $3, updated_at = $4 WHERE id = $1 AND enabled AND next_run_at = $2`,
    id,
    dueAt,
    next,
    now,
  );
  return n === 1 ? { ...s, nextRunAt: next } : null;
}

/**
 * Claims and executes the tick of schedule `id` due at `dueAt`, in the caller's transaction.
 * Null when another process claimed it first (or it changed meanwhile).
 */
export async function runTick(
  w: Work,
  id: string,
  dueAt: Date,
  now: Date,
  policies: SchedulePolicies,
): Promise<Execution | null> {
  const s = await claimTick(w.tx, id, dueAt, now);
  if (!s) return null;
  if (await previousRunOpen(w.tx, s)) {
    await w.tx.$executeRawUnsafe(
      `UPDATE schedules SET skipped_count = skipped_count + 1, last_skipped_at = $2, last_status = 'skipped' WHERE id = $1`,
      id,
      now,
    );
    return { outcome: "skipped", runId: s.lastRunId!, queued: 0 };
  }
  return execute(w, s, now, policies);
}

/** Records a tick whose execution failed (a column deleted, no model configured…) and moves it on. */
export async function recordTickError(tx: Tx, id: string, dueAt: Date, now: Date, message: string): Promise<boolean> {
  const s = await claimTick(tx, id, dueAt, now);
  if (!s) return false;
  await tx.$executeRawUnsafe(
    `UPDATE schedules SET last_run_at = $2, last_status = 'error', last_error = $3 WHERE id = $1`,
    id,
    now,
    message.slice(0, 1_000),
  );
  return true;
}

/** Runs a schedule now, whatever its next tick (which stays); 409 schedule_busy while its previous run is open. */
export async function triggerSchedule(
  w: Work,
  workspaceId: string,
  baseId: string,
  scheduleId: string,
  now: Date,
  policies: SchedulePolicies,
): Promise<{ outcome: "started" | "empty"; queued: number; run: RunView | null; schedule: ScheduleView }> {
  const baseCtx = await loadBase(w.tx, workspaceId, baseId);
  await loadSchedule(w.tx, workspaceId, baseCtx.baseId, scheduleId);
  // Locked, so two triggers at once cannot both find the previous run finished.
  const [s] = await w.tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM schedules WHERE id = $1 FOR UPDATE`,
    scheduleId,
  );
  const locked = (await w.tx.schedule.findUnique({ where: { id: s.id } }))!;
  if (await previousRunOpen(w.tx, locked))
    throw appError(
      "schedule_busy",
      "The schedule's previous run is still running or paused; wait for it, or cancel it.",
      {
        runId: locked.lastRunId,
      },
    );
  const execution = await execute(w, locked, now, policies);
  const after = (await w.tx.schedule.findUnique({ where: { id: s.id } }))!;
  const run = execution.outcome === "started" ? await getRun(w.tx, workspaceId, execution.runId) : null;
  return { outcome: run ? "started" : "empty", queued: execution.queued, run, schedule: scheduleView(after) };
}

async function previousRunOpen(tx: Tx, s: Schedule): Promise<boolean> {
  if (!s.lastRunId) return false;
  const run = await getRun(tx, s.workspaceId, s.lastRunId).catch(() => null);
  return run !== null && (run.status === "running" || run.status === "paused");
}

function scopeOf(rows: RowsSelection, now: Date): CellScope {
  if ("filter" in rows) return { filter: rows.filter };
  if ("olderThanDays" in rows) return { checkedBefore: new Date(now.getTime() - rows.olderThanDays * DAY_MS) };
  if ("belowConfidence" in rows) return { confidenceBelow: rows.belowConfidence };
  return {};
}

async function execute(w: Work, s: Schedule, now: Date, policies: SchedulePolicies): Promise<Execution> {
  let runId: string | null;
  let queued = 0;
  if (s.behavior === "find") {
    const find = s.find as unknown as ScheduleFind;
    const req = { ...find, includeUnclear: find.includeUnclear ?? false, excludeExisting: true, preview: false };
    const view = await createFind(
      w,
      s.workspaceId,
      s.baseId,
      { ...req, maxCredits: s.maxCredits ?? undefined },
      policies.find,
      s.id,
    );
    runId = view.runId;
  } else {
    const columnIds = (s.columnIds as string[] | null) ?? undefined;
    const req = { columnIds, maxCredits: s.maxCredits ?? undefined };
    const origin = { trigger: "schedule" as const, scheduleId: s.id };
    const result = await runCells(
      w,
      s.workspaceId,
      s.baseId,
      req,
      policies.run,
      origin,
      scopeOf(s.rows as RowsSelection, now),
    );
    runId = result.runId;
    queued = result.queued;
  }
  await w.tx.$executeRawUnsafe(
    `UPDATE schedules SET last_run_at = $2, last_run_id = COALESCE($3, last_run_id), last_status = $4, last_error = NULL
     WHERE id = $1`,
    s.id,
    now,
    runId,
    runId ? "started" : "empty",
  );
  return runId ? { outcome: "started", runId, queued } : { outcome: "empty", runId: null, queued: 0 };
}
