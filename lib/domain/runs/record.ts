import type { Tx } from "../../db/database.ts";
import type { Work } from "../../db/work.ts";
import { appError } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { parsed } from "../../db/json.ts";
import { assertMayQueue, type RunPolicy } from "./spend.ts";
import { PAUSED_REASON, RUN_TRANSITIONS } from "./states.ts";
import { assertKeyRoom } from "../../credits/key-cap.ts";
import type { RunCounts, RunStatus, RunTransition, RunTrigger, RunView } from "./states.ts";
import { prepared } from "../../db/prepared.ts";

export type { RunPolicy };

// The one owner of the `runs` table. A run is the record of one request that queued AI cells:
// its trigger, its budget and its control state. Its progress is read from its cells (a cell
// belongs to the last run that queued it), so the two can never disagree. An evaluation's run
// counts the evaluation's rows instead, which wait in `evaluation_items` as cells do in `cells`;
// a find's run counts its candidates, and the find itself while it is looking.

const fromSql = (t: RunTransition) => `runs.status IN (${RUN_TRANSITIONS[t].from.map((s) => `'${s}'`).join(", ")})`;
const toSql = (t: RunTransition) => `'${RUN_TRANSITIONS[t].to}'`;

export type RunRow = {
  id: string;
  workspaceId: string;
  baseId: string;
  trigger: string;
  status: string;
  cellCost: number;
  maxCredits: number | null;
  estimatedCredits: number;
  creditsSpent: number;
  pausedReason: string | null;
  /** The API key that started the run: its charges count against the key's daily cap. */
  keyId: string | null;
  scheduleId: string | null;
  createdAt: Date;
  finishedAt: Date | null;
};

/** Starts a run when cells were queued; null (no run) when none were, 402 when its key cannot pay for it. */
export async function startRun(
  w: Work,
  policy: RunPolicy,
  run: Omit<NewRun, "cellCost" | "maxCredits"> & { maxCredits?: number },
): Promise<string | null> {
  if (run.cells === 0) return null;
  assertMayQueue(policy, run.cells);
  const maxCredits = run.maxCredits ?? policy.defaultMaxCredits;
  const estimate = policy.keyCapCheck === false ? 0 : Math.min(run.cells * policy.cellCost, maxCredits ?? Infinity);
  await assertKeyRoom(w.tx, policy.keyId, estimate);
  return createRun(w, { ...run, cellCost: policy.cellCost, maxCredits, keyId: policy.keyId ?? null });
}

/**
 * Adds `cells` queued cells to a run that is still open, or that finished while its request was
 * still writing (a long import writes batch after batch, and its cells may all be done between
 * two): one import, one run. Null when the run was cancelled; the caller starts another.
 */
export async function extendRun(w: Work, runId: string, cells: number): Promise<string | null> {
  const rows = await w.tx.$queryRawUnsafe<{ id: string; workspace_id: string; base_id: string }[]>(
    `UPDATE runs SET estimated_credits = estimated_credits + $2 * cell_cost, updated_at = now(),
       status = CASE WHEN status = 'done' THEN 'running' ELSE status END,
       finished_at = CASE WHEN status = 'done' THEN NULL ELSE finished_at END
     WHERE id = $1 AND status IN ('running', 'paused', 'done')
     RETURNING id, workspace_id, base_id`,
    runId,
    cells,
  );
  if (rows.length === 0) return null;
  w.emit({ type: "run.updated", workspaceId: rows[0].workspace_id, baseId: rows[0].base_id, runId });
  return runId;
}

export interface NewRun {
  workspaceId: string;
  baseId: string;
  trigger: RunTrigger;
  cells: number;
  cellCost: number;
  maxCredits: number | null;
  keyId?: string | null;
  scheduleId?: string | null;
}
/** Records a run of `cells` queued cells; the caller queues them with the returned id. */
export async function createRun(w: Work, run: NewRun): Promise<string> {
  const id = newId.run();
  await w.tx.run.create({
    data: {
      id,
      workspaceId: run.workspaceId,
      baseId: run.baseId,
      trigger: run.trigger,
      cellCost: run.cellCost,
      maxCredits: run.maxCredits,
      estimatedCredits: run.cells * run.cellCost,
      keyId: run.keyId ?? null,
      scheduleId: run.scheduleId ?? null,
    },
  });
  w.emit({ type: "run.updated", workspaceId: run.workspaceId, baseId: run.baseId, runId: id });
  return id;
}

export const RUN_COLUMNS = `id, workspace_id AS "workspaceId", base_id AS "baseId", trigger, status, cell_cost AS "cellCost",
       max_credits AS "maxCredits", estimated_credits AS "estimatedCredits", credits_spent AS "creditsSpent",
       paused_reason AS "pausedReason", key_id AS "keyId", schedule_id AS "scheduleId", created_at AS "createdAt", finished_at AS "finishedAt"`;

const NO_CELLS = { pending: 0, running: 0, done: 0, error: 0, cancelled: 0 };
const noCounts = (): RunCounts => ({ ...NO_CELLS, skipped: 0, not_found: 0 });

/**
 * The runs read again with their cell counts, in one statement: one snapshot. Read apart, a batch
 * committed in between showed a run done by its counts with the spending of before (PostgreSQL).
 */
async function withCounts(tx: Tx, ids: readonly string[]): Promise<Map<string, RunRow & { counts: RunCounts }>> {
  const rows = await tx.$queryRawUnsafe<(RunRow & { counts: unknown })[]>(
    `SELECT ${RUN_COLUMNS},
       (SELECT json_object_agg(u.status, u.n) FROM (
          SELECT status, sum(n)::int AS n FROM (
            SELECT status, count(*) AS n FROM cells WHERE run_id = runs.id GROUP BY status
            UNION ALL SELECT status, count(*) AS n FROM evaluation_items WHERE run_id = runs.id GROUP BY status
            -- A find's verified candidates are done, whatever their verdict; the find looking is one running.
            UNION ALL SELECT CASE WHEN status IN ('matched', 'rejected', 'unclear') THEN 'done' ELSE status END, count(*)
              FROM find_candidates WHERE run_id = runs.id AND status <> 'excluded' GROUP BY status
            UNION ALL SELECT 'running', count(*) AS n FROM finds WHERE run_id = runs.id AND phase <> 'done') s
          GROUP BY status) u) AS counts
     FROM runs WHERE id = ANY($1::text[])`,
    [...ids],
  );
  const out = new Map<string, RunRow & { counts: RunCounts }>();
  for (const r of rows) {
    const counts = noCounts();
    for (const [status, n] of Object.entries(parsed<Record<string, number> | null>(r.counts) ?? {})) {
      if (status in counts) counts[status as keyof RunCounts] += Number(n);
    }
    const { counts: _raw, ...row } = r;
    out.set(r.id, { ...row, counts });
  }
  return out;
}

function toView(r: RunRow, counts: RunCounts): RunView {
  // Rows deleted mid-run take their cells along: a run with nothing left open is done.
  const open = counts.pending + counts.running > 0;
  const status = (r.status === "running" || r.status === "paused") && !open ? "done" : (r.status as RunStatus);
  return {
    id: r.id,
    baseId: r.baseId,
    trigger: r.trigger,
    status,
    counts,
    creditsSpent: r.creditsSpent,
    maxCredits: r.maxCredits,
    estimatedCredits: r.estimatedCredits,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    pausedReason: status === "paused" ? r.pausedReason : null,
    scheduleId: r.scheduleId ?? null,
  };
}

/** The views of these runs, in their order; a run deleted meanwhile keeps the row it was read with. */
async function views(tx: Tx, rows: RunRow[]): Promise<RunView[]> {
  const ids = rows.map((r) => r.id);
  const fresh = await withCounts(tx, ids);
  return rows.map((r) => {
    const f = fresh.get(r.id);
    return f ? toView(f, f.counts) : toView(r, noCounts());
  });
}

/** The run as the API shows it, in the caller's workspace; 404 run_not_found otherwise. */
export async function getRun(tx: Tx, workspaceId: string, runId: string): Promise<RunView> {
  const row = await tx.run.findFirst({ where: { id: runId, workspaceId } });
  if (!row) throw appError("run_not_found", `No run "${runId}" in this workspace.`);
  return (await views(tx, [row]))[0];
}

/** A base's runs, newest first; the cursor is the last run's id of the previous page. */
export async function listRuns(tx: Tx, workspaceId: string, baseId: string, opts: { limit: number; cursor?: string }) {
  const base = await tx.base.findFirst({ where: { id: baseId, workspaceId }, select: { id: true } });
  if (!base) throw appError("base_not_found", `No base "${baseId}" in this workspace.`);
  let before: { createdAt: Date; id: string } | undefined;
  if (opts.cursor) {
    const at = await tx.run.findFirst({
      where: { id: opts.cursor, baseId, workspaceId },
      select: { createdAt: true, id: true },
    });
    if (!at) throw appError("invalid_cursor", "The cursor is not a run of this base.");
    before = at;
  }
  const rows = await tx.run.findMany({
    where: {
      baseId,
      workspaceId,
      ...(before
        ? { OR: [{ createdAt: { lt: before.createdAt } }, { createdAt: before.createdAt, id: { lt: before.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: opts.limit + 1,
  });
  const page = rows.slice(0, opts.limit);
  return { runs: await views(tx, page), nextCursor: rows.length > opts.limit ? page[page.length - 1].id : null };
}

/** Locks the run for a control change or a charge, in the caller's workspace when one is given. */
export async function lockRun(tx: Tx, runId: string, workspaceId?: string): Promise<RunRow> {
  const rows = await lockRuns(tx, [runId]);
  const row = rows[0];
  if (!row || (workspaceId !== undefined && row.workspaceId !== workspaceId))
    throw appError("run_not_found", `No run "${runId}" in this workspace.`);
  return row;
}

/** Locks runs in id order (so two transactions never wait on each other in a cycle). */
export async function lockRuns(tx: Tx, runIds: readonly string[]): Promise<RunRow[]> {
  if (runIds.length === 0) return [];
  return tx.$queryRawUnsafe<RunRow[]>(
    `SELECT ${RUN_COLUMNS} FROM runs WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`,
    [...new Set(runIds)].sort(),
  );
}

/** Moves the run through a transition of the table; false when its status does not allow it. */
export async function transitionRun(
  w: Work,
  run: Pick<RunRow, "id" | "workspaceId" | "baseId">,
  t: RunTransition,
  set: { maxCredits?: number | null } = {},
) {
  const n = await w.tx.$executeRawUnsafe(
    `UPDATE runs SET status = ${toSql(t)}, updated_at = now(),
       paused_reason = ${PAUSED_REASON[t] ? `'${PAUSED_REASON[t]}'` : "NULL"},
       finished_at = ${t === "cancel" || t === "finish" ? "now()" : "finished_at"},
       max_credits = CASE WHEN $2::boolean THEN $3::int ELSE max_credits END
     WHERE id = $1 AND ${fromSql(t)}`,
    run.id,
    set.maxCredits !== undefined,
    set.maxCredits ?? null,
  );
  if (n > 0) w.emit({ type: "run.updated", workspaceId: run.workspaceId, baseId: run.baseId, runId: run.id });
  return n > 0;
}

/** A running run's new credit cap (resume without a pause). */
export async function setMaxCredits(
  w: Work,
  run: Pick<RunRow, "id" | "workspaceId" | "baseId">,
  maxCredits: number | null,
): Promise<void> {
  const sql = `UPDATE runs SET max_credits = $2, updated_at = now() WHERE id = $1`;
  await w.tx.$executeRawUnsafe(sql, run.id, maxCredits);
  w.emit({ type: "run.updated", workspaceId: run.workspaceId, baseId: run.baseId, runId: run.id });
}

/** Adds a stored batch's charge to the run's spending (the caller holds the run's lock). */
export async function addSpent(tx: Tx, runId: string, amount: number): Promise<void> {
  await tx.$executeRawUnsafe(
    prepared(`UPDATE runs SET credits_spent = credits_spent + $2, updated_at = now() WHERE id = $1`),
    runId,
    amount,
  );
}

/** Runs of these ids with no cell left pending or running are done: announced in the transaction (outbox) and after. */
export async function finishRuns(w: Work, runIds: readonly string[]): Promise<void> {
  const ids = [...new Set(runIds)];
  if (ids.length === 0) return;
  const finished = await w.tx.$queryRawUnsafe<{ id: string }[]>(
    prepared(`UPDATE runs SET status = ${toSql("finish")}, finished_at = now(), paused_reason = NULL, updated_at = now()
     WHERE id = ANY($1::text[]) AND ${fromSql("finish")}
       AND NOT EXISTS (SELECT 1 FROM cells c WHERE c.run_id = runs.id AND c.status IN ('pending', 'running'))
       AND NOT EXISTS (SELECT 1 FROM evaluation_items e WHERE e.run_id = runs.id AND e.status IN ('pending', 'running'))
       AND NOT EXISTS (SELECT 1 FROM finds f WHERE f.run_id = runs.id AND f.phase <> 'done')
     RETURNING id`),
    ids,
  );
  for (const { id } of finished) {
    const row = (await w.tx.run.findUnique({ where: { id } }))!;
    const [view] = await views(w.tx, [row]);
    await w.publish({ type: "run.completed", workspaceId: row.workspaceId, baseId: row.baseId, run: view });
    w.emit({ type: "run.updated", workspaceId: row.workspaceId, baseId: row.baseId, runId: id });
  }
  // Wakes the webhook relay for the run.completed messages just written.
  if (finished.length > 0) w.emit({ type: "webhooks.queued" });
}

/** Announces progress of these runs after commit (the live view throttles it). */
export function announceRuns(w: Work, runs: readonly { workspaceId: string; baseId: string; runId: string }[]): void {
  const seen = new Set<string>();
  for (const r of runs) {
    if (seen.has(r.runId)) continue;
    seen.add(r.runId);
    w.emit({ type: "run.updated", workspaceId: r.workspaceId, baseId: r.baseId, runId: r.runId });
  }
}
