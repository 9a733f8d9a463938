import type { Work } from "../../db/work.ts";
import type { BaseContext } from "../base-context.ts";
import { settleRows } from "../rows/settled.ts";
import { announceRuns, finishRuns } from "../runs/record.ts";
import { prepared } from "../../db/prepared.ts";

/**
 * Rows of these outcomes whose AI cells are now all terminal settle (row.sheet.processed), and
 * the runs of their cells finish when none of their cells is open. The caller holds the rows'
 * locks, taken after its own cell update, so whichever sibling outcome commits last sees all the
 * others and "all terminal" is decided exactly once.
 */
export async function settleFinished(
  w: Work,
  outcomes: readonly { baseCtx: BaseContext; rowId: string }[],
): Promise<void> {
  const rowIds = [...new Set(outcomes.map((o) => o.rowId))];
  if (rowIds.length === 0) return;
  const cells = await w.tx.$queryRawUnsafe<{ row_id: string; run_id: string | null; open: boolean }[]>(
    prepared(
      `SELECT row_id, run_id, bool_or(status IN ('pending', 'running')) AS open FROM cells WHERE row_id = ANY($1::text[]) GROUP BY row_id, run_id`,
    ),
    rowIds,
  );
  const stillOpen = new Set(cells.filter((c) => c.open).map((c) => c.row_id));
  const byBase = new Map<string, { baseCtx: BaseContext; rowIds: Set<string> }>();
  for (const o of outcomes) {
    if (stillOpen.has(o.rowId)) continue;
    const entry = byBase.get(o.baseCtx.baseId) ?? { baseCtx: o.baseCtx, rowIds: new Set<string>() };
    entry.rowIds.add(o.rowId);
    byBase.set(o.baseCtx.baseId, entry);
  }
  for (const { baseCtx, rowIds: ids } of byBase.values()) await settleRows(w, baseCtx, [...ids]);

  const baseCtx = outcomes[0].baseCtx;
  const runIds = [...new Set(cells.flatMap((c) => (c.run_id ? [c.run_id] : [])))];
  await finishRuns(w, runIds);
  announceRuns(
    w,
    runIds.map((runId) => ({ runId, workspaceId: baseCtx.workspaceId, baseId: baseCtx.baseId })),
  );
}
