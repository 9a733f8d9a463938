import { maxCellCost } from "../fill/cell-cost.ts";
import { isGenerated } from "../fill/kinds.ts";
import { z } from "zod";
import type { Tx } from "../../db/database.ts";
import type { Work } from "../../db/work.ts";
import { appError } from "../../errors.ts";
import { loadBase, loadColumns } from "../base-context.ts";
import { queueCells, type CellRef } from "../cells/index.ts";
import { balanceOf } from "../../credits/ledger.ts";
import { startRun, type RunPolicy } from "./record.ts";
import type { RunTrigger } from "./states.ts";
import { compileFilter, Params, parseFilter } from "../query/index.ts";
import { clearValues } from "../rows/values.ts";

export const RUN_SELECTABLE_STATUSES = ["idle", "done", "error", "cancelled", "skipped", "not_found"] as const;

export const runRequestSchema = z
  .object({
    columnIds: z
      .array(z.string())
      .max(200)
      .optional()
      .describe("AI columns to run, at most 200; default every AI column."),
    rowIds: z.array(z.string()).max(100_000).optional().describe("Rows to run, at most 100,000; default every row."),
    onlyEmpty: z.boolean().optional().describe("true to run only cells without a value."),
    statuses: z
      .array(
        z
          .enum(RUN_SELECTABLE_STATUSES)
          .describe(
            "A cell status: idle (never run), done, error, cancelled, skipped (its run condition was false) or not_found (no provider had data).",
          ),
      )
      .min(1)
      .max(RUN_SELECTABLE_STATUSES.length)
      .optional()
      .describe('Run only cells in these statuses, e.g. ["error", "cancelled"] to retry what failed.'),
    onlyStale: z
      .boolean()
      .optional()
      .describe("true to run only stale cells: generated from inputs or settings that have changed since."),
    maxCredits: z
      .number()
      .int()
      .min(1)
      .max(1_000_000_000)
      .optional()
      .describe(
        "The run's credit cap, 1 to 1,000,000,000: it pauses (pausedReason budget) rather than spend more. Default DEFAULT_RUN_MAX_CREDITS, else none.",
      ),
    force: z.boolean().optional().describe("true to regenerate verified cells too; they are left alone otherwise."),
  })
  .strict()
  .describe(
    "Which AI cells to run; an empty body means every AI cell. Cells already pending or running are left alone, and so are verified cells unless force is true.",
  );

export type RunRequest = z.infer<typeof runRequestSchema>;

/** Narrower selections a schedule makes; not part of POST /run's body. */
export interface CellScope {
  /** A Query Rows filter the rows must match. */
  filter?: unknown;
  /** Only cells last checked before this time (the later of checked_at and finished_at), or never generated. */
  checkedBefore?: Date;
  /** Only cells with a confidence score below this. */
  confidenceBelow?: number;
}

/** What started a run: POST /run by default. */
export interface RunOrigin {
  trigger: RunTrigger;
  scheduleId?: string;
}

/** The scope's extra conditions over `rows r` and `cells c`, their values added to `p`. */
function scopeSql(scope: CellScope, columns: Parameters<typeof parseFilter>[1], p: Params): string {
  const conds: string[] = [];
  if (scope.filter !== undefined && scope.filter !== null)
    conds.push(compileFilter(parseFilter(scope.filter, columns, "rows.filter"), p));
  if (scope.checkedBefore)
    conds.push(
      `(c.status IS NULL OR COALESCE(GREATEST(c.checked_at, c.finished_at), c.created_at) < ${p.add(scope.checkedBefore)}::timestamptz)`,
    );
  if (scope.confidenceBelow !== undefined)
    conds.push(`COALESCE((c.metadata->>'confidenceScore')::float8 < ${p.add(scope.confidenceBelow)}::float8, false)`);
  return conds.map((c) => `AND ${c}`).join("\n       ");
}

/** The AI cells a run request names; cells already pending or running are left alone. */
async function selectCells(tx: Tx, workspaceId: string, baseId: string, req: RunRequest, scope: CellScope = {}) {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const columns = await loadColumns(tx, baseCtx.sheetId);
  const ai = columns.filter(isGenerated);
  let columnIds = ai.map((c) => c.id);
  if (req.columnIds) {
    const unknown = req.columnIds.filter((id) => !ai.some((c) => c.id === id));
    if (unknown.length > 0)
      throw appError("validation_failed", `Not AI columns of this base: ${unknown.join(", ")}.`, {
        columnIds: unknown,
      });
    columnIds = [...new Set(req.columnIds)];
  }
  const p = new Params();
  for (const v of [baseCtx.sheetId, columnIds, req.rowIds ?? null, req.onlyEmpty ?? false, req.statuses ?? null])
    p.add(v);
  p.add(req.force ?? false);
  const extra = scopeSql(scope, columns, p);
  const refs = await tx.$queryRawUnsafe<{ row_id: string; column_id: string; stale: boolean; unchanged: boolean }[]>(
    `SELECT r.id AS row_id, col AS column_id, COALESCE(c.stale, false) AS stale,
       (c.status = 'done' AND NOT c.stale) AS unchanged
     FROM rows r CROSS JOIN unnest($2::text[]) AS col
     LEFT JOIN cells c ON c.row_id = r.id AND c.column_id = col
     WHERE r.sheet_id = $1
       AND ($3::text[] IS NULL OR r.id = ANY($3::text[]))
       AND (c.status IS NULL OR c.status NOT IN ('pending', 'running'))
       AND (NOT $4::boolean OR COALESCE(r."values"->>col, '') = '')
       AND ($5::text[] IS NULL OR COALESCE(c.status, 'idle') = ANY($5::text[]))
       AND ($6::boolean OR c.verified IS NOT TRUE)
       ${extra}
     ORDER BY r.seq`,
    ...p.values,
  );
  const stale = refs.filter((r) => r.stale).length;
  const unchanged = refs.filter((r) => r.unchanged).length;
  const chosen = req.onlyStale ? refs.filter((r) => r.stale) : refs;
  return {
    baseCtx,
    columns,
    stale,
    unchanged,
    refs: chosen.map((r): CellRef => ({ rowId: r.row_id, columnId: r.column_id })),
  };
}

/**
 * What a run would do: the cells it queues and the most they can cost (each column's declared
 * credits per cell: fill/cell-cost.ts), how many of the named cells are stale,
 * and how many are done and unchanged (skipped with onlyStale, regenerated without it).
 */
export async function estimateRun(tx: Tx, workspaceId: string, baseId: string, req: RunRequest, costPerCell: number) {
  const { columns, refs, stale, unchanged } = await selectCells(tx, workspaceId, baseId, req);
  const balance = await balanceOf(tx, workspaceId);
  const costs = new Map(columns.map((c) => [c.id, maxCellCost(c, costPerCell)]));
  return {
    cells: refs.length,
    credits: refs.reduce((sum, r) => sum + (costs.get(r.columnId) ?? costPerCell), 0),
    balance: balance === -1 ? null : balance,
    stale,
    unchanged,
    skipped: req.onlyStale ? unchanged : 0,
  };
}

/** (Re)generates exactly the named cells, as one run: they become pending with an empty value. */
export async function runCells(
  w: Work,
  workspaceId: string,
  baseId: string,
  req: RunRequest,
  policy: RunPolicy,
  origin: RunOrigin = { trigger: "run" },
  scope: CellScope = {},
) {
  const { baseCtx, refs } = await selectCells(w.tx, workspaceId, baseId, req, scope);
  const runId = await startRun(w, policy, {
    workspaceId,
    baseId: baseCtx.baseId,
    trigger: origin.trigger,
    scheduleId: origin.scheduleId ?? null,
    cells: refs.length,
    maxCredits: req.maxCredits,
  });
  if (!runId) return { runId, queued: 0 };
  for (let i = 0; i < refs.length; i += 5_000) {
    const batch = refs.slice(i, i + 5_000);
    await queueCells(w, baseCtx.sheetId, batch, runId);
    await clearValues(w.tx, batch);
  }
  const rowIds = [...new Set(refs.map((r) => r.rowId))];
  w.emit({ type: "rows.changed", workspaceId, baseId: baseCtx.baseId, rowIds, kind: "updated" });
  return { runId, queued: refs.length };
}
