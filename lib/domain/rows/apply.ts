import { isGenerated } from "../fill/kinds.ts";
import type { Work } from "../../db/work.ts";
import type { Tx } from "../../db/database.ts";
import type { BaseContext } from "../base-context.ts";
import { touchBase } from "../base-context.ts";
import type { ColumnRecord } from "../column-model.ts";
import type { RowValues } from "./view.ts";
import { decideByHash, planInsert, planUpdate } from "../cell-plan.ts";
import { settleRows } from "./settled.ts";
import {
  cellStates,
  insertCellsOfNewRows,
  markStale,
  queueCells,
  recordWrittenValues,
  supplyCells,
} from "../cells/index.ts";
import { editsWritten } from "./edit-history.ts";
import { assertMayQueue, extendRun, startRun, type RunPolicy, type RunTrigger } from "../runs/index.ts";
import { chunksByBytes } from "../../db/statement-chunks.ts";
import type { CopyIn } from "../../db/copy-in.ts";
import { copyNewRows } from "./bulk.ts";
import { mapInSlices } from "../../slices.ts";
import { rowFormulas, type RowFormulas } from "../formulas/row-formulas.ts";

/**
 * What one write request does to a base's rows, once every value has been validated: rows to add
 * (with their new ids) and cells to change in existing rows. Add Rows, Update Rows, an upsert and
 * an import batch all go through applyWrites, so AI cells follow one set of rules whichever way
 * the values came in, and one run carries every cell the request queued.
 */
export interface WritePlan {
  inserts: { id: string; values: RowValues }[];
  /** Per existing row: the cells written (column id → value; "" clears). */
  updates: Map<string, Map<string, string>>;
  /** The current values of the rows in `updates`, as read in this transaction. */
  current: Map<string, RowValues>;
}

export interface AppliedWrites {
  runId: string | null;
  /** The final values of every row added or updated. */
  values: Map<string, RowValues>;
}

type Pair = { rowId: string; columnId: string };

export interface ApplyOptions {
  /** false: queue no AI cells (new rows' stay empty, changed inputs mark dependents stale). */
  runAi?: boolean;
  /** Add the queued cells to this run if it can take them (an import's one run), instead of a new one. */
  runId?: string | null;
  /** Refresh the planner's statistics after this insert; default: when it adds 1,000 rows or more. */
  analyze?: boolean;
  /** Add the new rows by COPY on this transaction's connection (PostgreSQL; bulk.ts) rather than INSERT. */
  copyIn?: CopyIn;
  /** How the cells' history names the values written; default an edit (an import's: import). */
  historyKind?: "revert";
}

export async function applyWrites(
  w: Work,
  baseCtx: BaseContext,
  columns: readonly ColumnRecord[],
  plan: WritePlan,
  policy: RunPolicy,
  trigger: RunTrigger,
  opts: ApplyOptions = {},
): Promise<AppliedWrites> {
  const { tx } = w;
  const { workspaceId, baseId, sheetId } = baseCtx;
  // COPY for a large insert (an import batch, a large Add Rows): no array of the rows' JSON to
  // encode, send and take apart again. A small one keeps the INSERT, which needs no extra round trip.
  const formulas = await rowFormulas(columns);
  if (formulas) for (const row of plan.inserts) row.values = await formulas.compute(row.values);
  const copyIn = opts.copyIn ?? (plan.inserts.length >= COPY_AFTER_ROWS ? w.copyIn : undefined);
  if (copyIn) await copyNewRows(tx, copyIn, sheetId, plan.inserts);
  else await insertRows(tx, sheetId, plan.inserts);
  // Both databases analyze a table only once a tenth of it changed (autovacuum, or the embedded
  // database's upkeep), so a new sheet beside large ones has no statistics of its own. Without fresh
  // statistics the planner reads a large sheet by sorting all its rows for every batch of Get
  // Rows and every page, so a large insert refreshes them: a sample of the two columns those
  // reads filter and sort on (tens of milliseconds; with `values` it would be three times that).
  // SKIP_LOCKED: statistics are a hint, never worth a wait. A background index build (built
  // CONCURRENTLY, sheet-indexes.ts) holds the lock ANALYZE asks for while it waits for this very
  // transaction to end; waiting here would be a deadlock that PostgreSQL may settle by aborting the
  // request. Skipped, the statistics are refreshed by the next large insert instead.
  // The sample is 3,000 rows (a statistics target of 10), not 30,000: its cost then stays flat as
  // the table grows with other bases (400,000 rows: 5–14 ms, against 84–120 ms), and its ten most
  // common sheets still name every sheet large enough to need a plan of its own.
  if (opts.analyze ?? plan.inserts.length >= ANALYZE_AFTER_ROWS) {
    await tx.$executeRawUnsafe(`SET LOCAL default_statistics_target = ${ANALYZE_TARGET}`);
    await tx.$executeRawUnsafe(`ANALYZE (SKIP_LOCKED) rows (sheet_id, seq)`);
    await tx.$executeRawUnsafe(`SET LOCAL default_statistics_target TO DEFAULT`);
  }

  const fresh = planNewRowCells(columns, plan.inserts, opts.runAi !== false);
  const changes = await planRowChanges(tx, columns, plan, formulas);
  if (opts.runAi === false) changes.stale.push(...changes.rerun.splice(0));
  const pending = fresh.cells.filter((c) => c.status === "pending").length + changes.rerun.length;
  assertMayQueue(policy, pending);
  const extended = opts.runId && pending > 0 ? await extendRun(w, opts.runId, pending) : null;
  const runId = extended ?? (await startRun(w, policy, { workspaceId, baseId, trigger, cells: pending }));

  await insertCellsOfNewRows(w, sheetId, fresh.cells, runId);
  await supplyCells(tx, sheetId, changes.supplied);
  await markStale(tx, changes.stale);
  // Before the values change: a queued cell keeps the value it had, for a cancelled run to restore.
  if (runId) await queueCells(w, sheetId, changes.rerun, runId);
  await writeRowValues(tx, changes.updated);
  const rerun = new Set(changes.rerun.map((p) => `${p.rowId}:${p.columnId}`));
  const kind = opts.historyKind ?? (trigger === "import" ? "import" : "edit");
  const who = { runId, actorId: policy.actorId ?? policy.keyId ?? null, kind } as const;
  await recordWrittenValues(w, editsWritten(baseCtx, columns, plan.updates, plan.current, changes.updated, rerun, who));
  const waiting = new Set(changes.rerun.map((p) => p.rowId));
  await settleRows(w, baseCtx, [...fresh.settled, ...[...changes.updated.keys()].filter((id) => !waiting.has(id))]);

  if (plan.inserts.length > 0 || changes.updated.size > 0) await touchBase(tx, baseId);
  const added = plan.inserts.map((r) => r.id);
  if (added.length > 0) w.emit({ type: "rows.changed", workspaceId, baseId, rowIds: added, kind: "added" });
  if (changes.updated.size > 0)
    w.emit({ type: "rows.changed", workspaceId, baseId, rowIds: [...changes.updated.keys()], kind: "updated" });
  const values = new Map<string, RowValues>(plan.inserts.map((r) => [r.id, r.values]));
  for (const [id, v] of changes.updated) values.set(id, v);
  return { runId, values };
}

const ANALYZE_AFTER_ROWS = 1_000;
const COPY_AFTER_ROWS = 1_000;
const ANALYZE_TARGET = 10;

function planNewRowCells(columns: readonly ColumnRecord[], rows: WritePlan["inserts"], runAi: boolean) {
  const aiColumns = columns.filter(isGenerated);
  const cells: { rowId: string; columnId: string; status: "done" | "pending" }[] = [];
  const settled: string[] = [];
  for (const row of rows) {
    const plan = planInsert(aiColumns, new Set(Object.keys(row.values)));
    let waiting = false;
    for (const [columnId, action] of plan) {
      if (action === "idle" || (action === "pending" && !runAi)) continue;
      waiting ||= action === "pending";
      cells.push({ rowId: row.id, columnId, status: action === "supplied" ? "done" : "pending" });
    }
    if (!waiting) settled.push(row.id);
  }
  return { cells, settled };
}

/**
 * A dependent AI cell runs again only when what it is generated from changed (its input hash);
 * with autoRun onInsert or never it is marked stale instead. Decided per row on its final values,
 * so a change and its undo in one request cost nothing.
 */
async function planRowChanges(
  tx: Tx,
  columns: readonly ColumnRecord[],
  { updates, current }: WritePlan,
  formulas: RowFormulas | null,
) {
  // Only AI cells are re-run, marked stale or kept for review, so only theirs are read: a base
  // without AI columns reads no cells at all.
  const aiColumnIds = columns.filter(isGenerated).map((c) => c.id);
  const states = await cellStates(tx, [...updates.keys()], aiColumnIds);
  const updated = new Map<string, RowValues>();
  const rerun: Pair[] = [];
  const supplied: Pair[] = [];
  const stale: Pair[] = [];
  for (const [rowId, written] of updates) {
    const before = current.get(rowId) ?? {};
    let next = { ...before };
    for (const [id, v] of written) {
      if (v === "") delete next[id];
      else next[id] = v;
    }
    const changed = new Set([...written].filter(([id, v]) => (before[id] ?? "") !== v).map(([id]) => id));
    if (formulas) {
      // Formulas are recomputed before the plan, so that what reads them sees their new values.
      next = await formulas.compute(next);
      for (const id of formulas.columnIds) if ((before[id] ?? "") !== (next[id] ?? "")) changed.add(id);
    }
    const plan = planUpdate(columns, written, changed);
    const decided = decideByHash(columns, written, changed, next, (columnId) => states.get(`${rowId}:${columnId}`));
    // A verified cell is never regenerated because its inputs changed: it keeps its value and
    // becomes stale, so it goes back to review. Writing "" into it is an explicit re-run.
    const keep = (columnId: string) => states.get(`${rowId}:${columnId}`)?.verified === true && !written.has(columnId);
    for (const columnId of decided.rerun) {
      if (keep(columnId)) stale.push({ rowId, columnId });
      else {
        delete next[columnId];
        rerun.push({ rowId, columnId });
      }
    }
    for (const columnId of decided.stale) stale.push({ rowId, columnId });
    for (const columnId of plan.supplied) supplied.push({ rowId, columnId });
    updated.set(rowId, next);
  }
  return { updated, rerun, supplied, stale };
}

// Set-based statements, in the order given (seq is insertion order): Prisma's createMany costs
// several times as much at 10,000 rows. Long values split a request into several statements
// (statement-chunks.ts), so that memory follows the work, not the size of the request.
async function insertRows(tx: Tx, sheetId: string, rows: WritePlan["inserts"]) {
  const encoded = await mapInSlices(rows, (r) => ({ id: r.id, json: JSON.stringify(r.values) }));
  for (const chunk of chunksByBytes(encoded, (r) => r.json.length)) {
    await tx.$executeRawUnsafe(
      `INSERT INTO rows (id, sheet_id, "values")
       SELECT id, $1, v FROM unnest($2::text[], $3::jsonb[]) WITH ORDINALITY AS t(id, v, n) ORDER BY n`,
      sheetId,
      chunk.map((r) => r.id),
      chunk.map((r) => r.json),
    );
  }
}

async function writeRowValues(tx: Tx, rows: ReadonlyMap<string, RowValues>) {
  const encoded = await mapInSlices([...rows], ([id, v]) => ({ id, json: JSON.stringify(v) }));
  for (const chunk of chunksByBytes(encoded, (r) => r.json.length)) {
    await tx.$executeRawUnsafe(
      `UPDATE rows SET "values" = t.v, updated_at = now() FROM unnest($1::text[], $2::jsonb[]) AS t(id, v) WHERE rows.id = t.id`,
      chunk.map((r) => r.id),
      chunk.map((r) => r.json),
    );
  }
}
