import type { Work } from "../../db/work.ts";
import { appError } from "../../errors.ts";
import { loadBase, loadColumns, type BaseContext } from "../base-context.ts";
import type { ColumnRecord } from "../column-model.ts";
import { isGenerated } from "../fill/kinds.ts";
import { cellStates, restoreCells } from "../cells/index.ts";
import { applyWrites, type RowValues } from "../rows/index.ts";
import { getRun, type RunPolicy } from "../runs/index.ts";
import type { StoredEntry } from "./entry.ts";
import { cellEntries, rowOfBase } from "./read.ts";

// Reverts: a cell back to what it held before one of its changes, or every cell a run changed
// back to what it held before the run, unless someone changed it since. A revert is a write like
// an edit (formulas follow, dependent AI cells become stale rather than run again) and is itself
// recorded, so it can be reverted in turn.

interface Restore {
  rowId: string;
  columnId: string;
  entry: StoredEntry;
  /** The latest earlier entry that stored the restored value with its sources and confidence. */
  previous: StoredEntry | undefined;
}

/** A review or an edit keeps a value without its sources: look past them to the answer that gave it. */
function answerBefore(entries: readonly StoredEntry[], at: number): StoredEntry | undefined {
  const value = entries[at].b;
  for (let i = at - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.v !== value) return undefined;
    if (e.s !== undefined || e.c !== undefined) return e;
  }
  return undefined;
}

const isFormula = (c: ColumnRecord) => (c.fill as { kind?: string } | null)?.kind === "formula";
const BUSY = new Set(["pending", "running"]);
const MAX_RUN_REVERT_CELLS = 100_000;

/** Puts each cell back to its entry's "before", in one write. */
async function applyRestores(
  w: Work,
  baseCtx: BaseContext,
  columns: readonly ColumnRecord[],
  restores: Restore[],
  policy: RunPolicy,
) {
  if (restores.length === 0) return;
  const rowIds = [...new Set(restores.map((r) => r.rowId))];
  const rows = await w.tx.$queryRawUnsafe<{ id: string; values: RowValues }[]>(
    `SELECT id, "values" FROM rows WHERE id = ANY($1::text[]) AND sheet_id = $2 ORDER BY id FOR UPDATE`,
    rowIds,
    baseCtx.sheetId,
  );
  const updates = new Map<string, Map<string, string>>();
  for (const r of restores) updates.set(r.rowId, (updates.get(r.rowId) ?? new Map()).set(r.columnId, r.entry.b));
  const plan = { inserts: [], updates, current: new Map(rows.map((r) => [r.id, r.values])) };
  await applyWrites(w, baseCtx, columns, plan, policy, "update-rows", { runAi: false, historyKind: "revert" });
  const generated = new Set(columns.filter(isGenerated).map((c) => c.id));
  await restoreCells(
    w.tx,
    baseCtx.sheetId,
    restores
      .filter((r) => generated.has(r.columnId))
      .map((r) => ({
        rowId: r.rowId,
        columnId: r.columnId,
        value: r.entry.b,
        historyId: r.entry.i,
        sources: r.previous?.s ?? null,
        confidence: r.previous?.c ?? null,
      })),
  );
}

export async function revertCell(
  w: Work,
  workspaceId: string,
  baseId: string,
  ref: { rowId: string; columnId: string; historyId: string },
  policy: RunPolicy,
) {
  const baseCtx = await loadBase(w.tx, workspaceId, baseId);
  await rowOfBase(w.tx, baseCtx, ref.rowId, true);
  const columns = await loadColumns(w.tx, baseCtx.sheetId);
  const column = columns.find((c) => c.id === ref.columnId);
  if (!column) throw appError("column_not_found", `No column "${ref.columnId}" in this base.`);
  const [cell] = await cellEntries(w.tx, baseCtx.baseId, ref.rowId, ref.columnId);
  const at = cell?.entries.findIndex((e) => e.i === ref.historyId) ?? -1;
  if (!cell || at < 0)
    throw appError("history_entry_not_found", `No change "${ref.historyId}" in this cell's history.`);
  if (isFormula(column))
    throw appError("not_revertible", "A formula's value follows its inputs: revert those instead.");
  const state = (await cellStates(w.tx, [ref.rowId], [ref.columnId])).get(`${ref.rowId}:${ref.columnId}`);
  if (state && BUSY.has(state.status))
    throw appError("not_revertible", `The cell is ${state.status}: cancel its run or wait for it first.`);
  const entry = cell.entries[at];
  await applyRestores(w, baseCtx, columns, [{ ...ref, entry, previous: answerBefore(cell.entries, at) }], policy);
  return { rowId: ref.rowId, columnId: ref.columnId, revertedTo: { value: entry.b, historyId: entry.i } };
}

/**
 * Every cell whose last change is this run's goes back to what it held before the run. A cell
 * changed since (an edit, a review, another run) is left alone. `dryRun` only counts.
 */
export async function revertRun(
  w: Work,
  workspaceId: string,
  runId: string,
  opts: { dryRun: boolean },
  policy: RunPolicy,
) {
  const run = await getRun(w.tx, workspaceId, runId);
  if (run.status === "running" || run.status === "paused")
    throw appError("not_revertible", `The run is ${run.status}: cancel it or wait for it to finish first.`);
  const baseCtx = await loadBase(w.tx, workspaceId, run.baseId);
  const columns = await loadColumns(w.tx, baseCtx.sheetId);
  const formulas = new Set(columns.filter(isFormula).map((c) => c.id));
  const cells = await w.tx.$queryRawUnsafe<{ row_id: string; column_id: string; entries: StoredEntry[] }[]>(
    `SELECT row_id, column_id, entries FROM cell_history WHERE last_run_id = $1 AND base_id = $2`,
    runId,
    baseCtx.baseId,
  );
  const states = await cellStates(
    w.tx,
    [...new Set(cells.map((c) => c.row_id))],
    [...new Set(cells.map((c) => c.column_id))],
  );
  const busy = (c: { row_id: string; column_id: string }) =>
    BUSY.has(states.get(`${c.row_id}:${c.column_id}`)?.status ?? "");
  const restores: Restore[] = [];
  for (const c of cells) {
    // A formula follows its inputs; a cell queued again since belongs to that run now.
    if (formulas.has(c.column_id) || busy(c)) continue;
    // The run's own trailing changes (an output and a formula may follow its answer): back before the first.
    let first = c.entries.length - 1;
    while (first > 0 && c.entries[first - 1].r === runId) first--;
    restores.push({
      rowId: c.row_id,
      columnId: c.column_id,
      entry: c.entries[first],
      previous: answerBefore(c.entries, first),
    });
  }
  const summary = {
    runId,
    dryRun: opts.dryRun,
    cells: restores.length,
    rows: new Set(restores.map((r) => r.rowId)).size,
  };
  // One transaction writes them all: past this many, it would hold its locks too long.
  if (!opts.dryRun && restores.length > MAX_RUN_REVERT_CELLS)
    throw appError(
      "limit_reached",
      `A run revert puts back at most ${MAX_RUN_REVERT_CELLS.toLocaleString("en-US")} cells; this one changed ${restores.length.toLocaleString("en-US")}.`,
      { limit: MAX_RUN_REVERT_CELLS },
    );
  if (!opts.dryRun) await applyRestores(w, baseCtx, columns, restores, policy);
  return summary;
}
