import type { Work } from "../db/work.ts";
import type { Tx } from "../db/database.ts";
import { appError } from "../errors.ts";
import { newId } from "../ids.ts";
import { loadBase, loadColumns, touchBase } from "./base-context.ts";
import { checkNewRow, checkRowUpdate, ColumnIndex, normalizeCells } from "./row-input.ts";
import { standardRow, type RowValues } from "./row-view.ts";
import { decideByHash, planInsert, planUpdate } from "./cell-plan.ts";
import { settleRows } from "./row-settled.ts";
import { cellHashes, insertCellsOfNewRows, markStale, queueCells, supplyCells } from "./cells/index.ts";
import { startRun, type RunPolicy } from "./runs/record.ts";

/**
 * Add Rows (spec §4.4): all or nothing. Every problem of every row is reported at once, so each
 * row's shape is checked here (checkNewRow) together with its cells, not at the edge.
 */
export async function addRows(w: Work, workspaceId: string, baseId: string, { rows: input }: { rows: readonly unknown[] }, policy: RunPolicy) {
  const { tx } = w;
  const ctx = await loadBase(tx, workspaceId, baseId);
  const columns = await loadColumns(tx, ctx.sheetId);
  const index = new ColumnIndex(columns);
  const errors: { rowIndex: number; column?: string; code: string; message: string }[] = [];
  const prepared: { id: string; values: RowValues }[] = [];

  input.forEach((raw, rowIndex) => {
    const row = checkNewRow(raw);
    if ("code" in row) {
      errors.push({ rowIndex, ...row });
      return;
    }
    const { values, problems } = normalizeCells(index, row.cells);
    for (const p of problems) errors.push({ rowIndex, ...p });
    const stored: RowValues = {};
    for (const [id, v] of values) if (v !== "") stored[id] = v;
    prepared.push({ id: newId.row(), values: stored });
  });
  if (errors.length > 0) {
    throw appError("validation_failed", `${errors.length} problem(s) in the rows; nothing was added.`, { errors });
  }

  await insertRows(tx, ctx.sheetId, prepared);
  // PGlite has no autovacuum and PostgreSQL's analyses only now and then. Without fresh
  // statistics the planner reads a large sheet by sorting all its rows for every batch of Get
  // Rows and every page, so a large insert refreshes them: a sample of the two columns those
  // reads filter and sort on (tens of milliseconds; with `values` it would be three times that).
  if (prepared.length >= ANALYZE_AFTER_ROWS) await tx.$executeRawUnsafe(`ANALYZE rows (sheet_id, seq)`);
  const aiColumns = columns.filter((c) => c.isAiEnabled);
  const cells: { rowId: string; columnId: string; status: "done" | "pending" }[] = [];
  const settled: string[] = [];
  for (const row of prepared) {
    const plan = planInsert(aiColumns, new Set(Object.keys(row.values)));
    let waiting = false;
    for (const [columnId, action] of plan) {
      if (action === "idle") continue;
      waiting ||= action === "pending";
      cells.push({ rowId: row.id, columnId, status: action === "supplied" ? "done" : "pending" });
    }
    if (!waiting) settled.push(row.id);
  }
  const pending = cells.filter((c) => c.status === "pending").length;
  const runId = await startRun(w, policy, { workspaceId, baseId: ctx.baseId, trigger: "add-rows", cells: pending });
  await insertCellsOfNewRows(w, ctx.sheetId, cells, runId);
  await touchBase(tx, ctx.baseId);
  await settleRows(w, ctx, settled);
  const ids = prepared.map((r) => r.id);
  if (ids.length > 0) w.emit({ type: "rows.changed", workspaceId, baseId: ctx.baseId, rowIds: ids, kind: "added" });
  return { rows: prepared.map((r) => standardRow(columns, r.id, r.values)), runId };
}

const ANALYZE_AFTER_ROWS = 1_000;

// One statement per table for a whole request, in the order given (seq is insertion order):
// Prisma's createMany costs several times as much at 10,000 rows.
async function insertRows(tx: Tx, sheetId: string, rows: readonly { id: string; values: RowValues }[]) {
  if (rows.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO rows (id, sheet_id, "values")
     SELECT id, $1, v FROM unnest($2::text[], $3::jsonb[]) WITH ORDINALITY AS t(id, v, n) ORDER BY n`,
    sheetId,
    rows.map((r) => r.id),
    rows.map((r) => JSON.stringify(r.values)),
  );
}

interface UpdateError {
  rowId: string | null;
  column?: string;
  code: string;
  message: string;
}

/**
 * Update Rows (spec §4.5): partial. Each row is applied whole or reported in `errors`, its shape
 * too. A dependent AI cell runs again only when what it is generated from changed (its input
 * hash); with autoRun onInsert or never it is marked stale instead.
 */
export async function updateRows(w: Work, workspaceId: string, baseId: string, { rows: rawRows }: { rows: readonly unknown[] }, policy: RunPolicy) {
  const input = rawRows.map(checkRowUpdate);
  const { tx } = w;
  const ctx = await loadBase(tx, workspaceId, baseId);
  const columns = await loadColumns(tx, ctx.sheetId);
  const index = new ColumnIndex(columns);
  const errors: UpdateError[] = [];
  const ids = input.flatMap((r) => ("code" in r ? [] : [r.id]));
  const existing = await tx.row.findMany({ where: { sheetId: ctx.sheetId, id: { in: ids } }, select: { id: true, values: true } });
  const current = new Map(existing.map((r) => [r.id, { ...((r.values ?? {}) as RowValues) }]));
  const updated = new Map<string, RowValues>();
  const rerunPairs: { rowId: string; columnId: string }[] = [];
  const suppliedPairs: { rowId: string; columnId: string }[] = [];
  const stalePairs: { rowId: string; columnId: string }[] = [];
  const writes = new Map<string, Map<string, string>>();
  const hashes = await cellHashes(tx, ids, columns.filter((c) => c.isAiEnabled).map((c) => c.id));
  const verified = await verifiedCells(tx, ids);

  for (const row of input) {
    if ("code" in row) {
      errors.push(row);
      continue;
    }
    const values = updated.get(row.id) ?? current.get(row.id);
    if (!values) {
      errors.push({ rowId: row.id, code: "row_not_found", message: `No row "${row.id}" in this base.` });
      continue;
    }
    const { values: written, problems } = normalizeCells(index, row.cells);
    if (problems.length > 0) {
      for (const p of problems) errors.push({ rowId: row.id, ...p });
      continue;
    }
    const next = { ...values };
    for (const [id, v] of written) {
      if (v === "") delete next[id];
      else next[id] = v;
    }
    updated.set(row.id, next);
    const merged = writes.get(row.id) ?? new Map<string, string>();
    for (const [id, v] of written) merged.set(id, v);
    writes.set(row.id, merged);
  }

  // Decided per row on its final values, so a change and its undo in one request cost nothing.
  for (const [rowId, written] of writes) {
    const before = current.get(rowId)!;
    const next = updated.get(rowId)!;
    const changed = new Set([...written].filter(([id, v]) => (before[id] ?? "") !== v).map(([id]) => id));
    const plan = planUpdate(columns, written, changed);
    const decided = decideByHash(columns, written, changed, next, (columnId) => hashes.get(`${rowId}:${columnId}`));
    // A verified cell is never regenerated because its inputs changed: it keeps its value and
    // becomes stale, so it goes back to review. Writing "" into it is an explicit re-run.
    const keep = (columnId: string) => verified.has(`${rowId}:${columnId}`) && !written.has(columnId);
    for (const columnId of decided.rerun) {
      if (keep(columnId)) stalePairs.push({ rowId, columnId });
      else {
        delete next[columnId];
        rerunPairs.push({ rowId, columnId });
      }
    }
    for (const columnId of decided.stale) stalePairs.push({ rowId, columnId });
    for (const columnId of plan.supplied) suppliedPairs.push({ rowId, columnId });
  }

  await supplyCells(tx, ctx.sheetId, suppliedPairs);
  await markStale(tx, stalePairs);
  const runId = await startRun(w, policy, { workspaceId, baseId: ctx.baseId, trigger: "update-rows", cells: rerunPairs.length });
  // Before the values change: a queued cell keeps the value it had, for a cancelled run to restore.
  if (runId) await queueCells(w, ctx.sheetId, rerunPairs, runId);
  for (const [id, values] of updated) {
    await tx.row.update({ where: { id }, data: { values, updatedAt: new Date() } });
  }
  const waiting = new Set(rerunPairs.map((p) => p.rowId));
  await settleRows(w, ctx, [...updated.keys()].filter((id) => !waiting.has(id)));
  if (updated.size > 0) {
    await touchBase(tx, ctx.baseId);
    w.emit({ type: "rows.changed", workspaceId, baseId: ctx.baseId, rowIds: [...updated.keys()], kind: "updated" });
  }
  return { rows: [...updated].map(([id, values]) => standardRow(columns, id, values)), errors, runId };
}

async function verifiedCells(tx: Tx, rowIds: readonly string[]): Promise<Set<string>> {
  if (rowIds.length === 0) return new Set();
  const rows = await tx.$queryRawUnsafe<{ k: string }[]>(`SELECT row_id || ':' || column_id AS k FROM cells WHERE row_id = ANY($1::text[]) AND verified`, rowIds);
  return new Set(rows.map((r) => r.k));
}

/** Review corrections: the values reviewers wrote into AI cells (their cells are stored by cells/review.ts). */
export async function writeReviewedValues(tx: Tx, edits: readonly { rowId: string; columnId: string; value: string }[]): Promise<void> {
  if (edits.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE rows SET "values" = (rows."values" - t.cleared) || t.patch, updated_at = now()
     FROM (SELECT row_id,
             COALESCE(jsonb_object_agg(column_id, value) FILTER (WHERE value <> ''), '{}'::jsonb) AS patch,
             COALESCE(array_agg(column_id) FILTER (WHERE value = ''), ARRAY[]::text[]) AS cleared
           FROM unnest($1::text[], $2::text[], $3::text[]) AS u(row_id, column_id, value) GROUP BY row_id) t
     WHERE rows.id = t.row_id`,
    edits.map((e) => e.rowId),
    edits.map((e) => e.columnId),
    edits.map((e) => e.value),
  );
}

export async function deleteRows(w: Work, workspaceId: string, baseId: string, { rowIds }: { rowIds: string[] }) {
  const { tx } = w;
  const ctx = await loadBase(tx, workspaceId, baseId);
  const found = await tx.row.findMany({ where: { sheetId: ctx.sheetId, id: { in: rowIds } }, select: { id: true } });
  const foundIds = new Set(found.map((r) => r.id));
  if (found.length > 0) {
    await tx.row.deleteMany({ where: { sheetId: ctx.sheetId, id: { in: [...foundIds] } } });
    await touchBase(tx, ctx.baseId);
    w.emit({ type: "rows.changed", workspaceId, baseId: ctx.baseId, rowIds: [...foundIds], kind: "deleted" });
  }
  const errors = [...new Set(rowIds)]
    .filter((id) => !foundIds.has(id))
    .map((id) => ({ rowId: id, code: "row_not_found", message: `No row "${id}" in this base.` }));
  return { deletedRowIds: [...foundIds], errors };
}
