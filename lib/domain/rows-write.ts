import type { Work } from "../db/work.ts";
import type { Tx } from "../db/database.ts";
import { appError } from "../errors.ts";
import { newId } from "../ids.ts";
import { loadBase, loadColumns, touchBase } from "./bases.ts";
import { ColumnIndex, isPlainObject, MAX_ROWS_PER_REQUEST, normalizeCells } from "./row-input.ts";
import { standardRow, type RowValues } from "./row-view.ts";
import { planInsert, planUpdate } from "../engine/planner.ts";
import { userSuppliedMetadata } from "./cell-view.ts";
import { settleRows } from "./row-settled.ts";
import { markCellsPending, markCellsSupplied } from "../engine/cell-state.ts";

function assertRowsArray(body: unknown): unknown[] {
  if (!isPlainObject(body) || !Array.isArray(body.rows)) {
    throw appError("validation_failed", 'The body must be { "rows": [ ... ] }.');
  }
  if (body.rows.length > MAX_ROWS_PER_REQUEST) {
    throw appError("too_many_rows", `At most ${MAX_ROWS_PER_REQUEST} rows per request; got ${body.rows.length}.`);
  }
  return body.rows;
}

/** Add Rows (spec §4.4): all or nothing. Every problem of every row is reported at once. */
export async function addRows(w: Work, workspaceId: string, baseId: string, body: unknown) {
  const input = assertRowsArray(body);
  const { tx } = w;
  const ctx = await loadBase(tx, workspaceId, baseId);
  const columns = await loadColumns(tx, ctx.sheetId);
  const index = new ColumnIndex(columns);
  const errors: { rowIndex: number; column?: string; code: string; message: string }[] = [];
  const prepared: { id: string; values: RowValues }[] = [];

  input.forEach((row, rowIndex) => {
    if (!isPlainObject(row) || !isPlainObject(row.cells)) {
      errors.push({ rowIndex, code: "invalid_row", message: 'Each row is { "cells": { <column name>: <value> } }.' });
      return;
    }
    if ("id" in row) {
      errors.push({ rowIndex, code: "id_not_allowed", message: "New rows must not carry an id; it is assigned." });
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
  await insertCells(tx, ctx.sheetId, cells);
  await w.queueCells?.(cells.filter((c) => c.status === "pending"));
  await touchBase(tx, ctx.baseId);
  await settleRows(w, ctx, settled);
  const ids = prepared.map((r) => r.id);
  if (ids.length > 0) w.emit({ type: "rows.changed", workspaceId, baseId: ctx.baseId, rowIds: ids, kind: "added" });
  if (cells.some((c) => c.status === "pending")) w.emit({ type: "work.available" });
  return { rows: prepared.map((r) => standardRow(columns, r.id, r.values)) };
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

/** AI cells of new rows: pending ones to run, and values the user supplied (done, marked as theirs). */
async function insertCells(tx: Tx, sheetId: string, cells: readonly { rowId: string; columnId: string; status: "done" | "pending" }[]) {
  if (cells.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO cells (row_id, column_id, sheet_id, status, metadata, finished_at)
     SELECT r, c, $3, s, CASE WHEN s = 'done' THEN $5::jsonb END, CASE WHEN s = 'done' THEN now() END
     FROM unnest($1::text[], $2::text[], $4::text[]) AS t(r, c, s)`,
    cells.map((c) => c.rowId),
    cells.map((c) => c.columnId),
    sheetId,
    cells.map((c) => c.status),
    JSON.stringify(userSuppliedMetadata()),
  );
}

interface UpdateError {
  rowId: string | null;
  column?: string;
  code: string;
  message: string;
}

/** Update Rows (spec §4.5): partial. Each row is applied whole or reported in `errors`. */
export async function updateRows(w: Work, workspaceId: string, baseId: string, body: unknown) {
  const input = assertRowsArray(body);
  const { tx } = w;
  const ctx = await loadBase(tx, workspaceId, baseId);
  const columns = await loadColumns(tx, ctx.sheetId);
  const index = new ColumnIndex(columns);
  const errors: UpdateError[] = [];
  const ids = input.flatMap((r) => (isPlainObject(r) && typeof r.id === "string" ? [r.id] : []));
  const existing = await tx.row.findMany({ where: { sheetId: ctx.sheetId, id: { in: ids } }, select: { id: true, values: true } });
  const current = new Map(existing.map((r) => [r.id, { ...((r.values ?? {}) as RowValues) }]));
  const updated = new Map<string, RowValues>();
  const rerunPairs: { rowId: string; columnId: string }[] = [];
  const suppliedPairs: { rowId: string; columnId: string }[] = [];

  for (const row of input) {
    if (!isPlainObject(row) || typeof row.id !== "string" || !isPlainObject(row.cells)) {
      const rowId = isPlainObject(row) && typeof row.id === "string" ? row.id : null;
      errors.push({ rowId, code: "invalid_row", message: 'Each row is { "id": "sr_…", "cells": { <column name>: <value> } }.' });
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
    const changed = new Set([...written].filter(([id, v]) => (values[id] ?? "") !== v).map(([id]) => id));
    const next = { ...values };
    for (const [id, v] of written) {
      if (v === "") delete next[id];
      else next[id] = v;
    }
    const plan = planUpdate(columns, written, changed);
    for (const columnId of plan.rerun) delete next[columnId];
    updated.set(row.id, next);
    for (const columnId of plan.rerun) rerunPairs.push({ rowId: row.id, columnId });
    for (const columnId of plan.supplied) suppliedPairs.push({ rowId: row.id, columnId });
  }

  for (const [id, values] of updated) {
    await tx.row.update({ where: { id }, data: { values, updatedAt: new Date() } });
  }
  await markCellsSupplied(tx, ctx.sheetId, suppliedPairs);
  await markCellsPending(tx, ctx.sheetId, rerunPairs);
  await w.queueCells?.(rerunPairs);
  const waiting = new Set(rerunPairs.map((p) => p.rowId));
  await settleRows(w, ctx, [...updated.keys()].filter((id) => !waiting.has(id)));
  if (updated.size > 0) {
    await touchBase(tx, ctx.baseId);
    w.emit({ type: "rows.changed", workspaceId, baseId: ctx.baseId, rowIds: [...updated.keys()], kind: "updated" });
  }
  if (rerunPairs.length > 0) w.emit({ type: "work.available" });
  return { rows: [...updated].map(([id, values]) => standardRow(columns, id, values)), errors };
}

export async function deleteRows(w: Work, workspaceId: string, baseId: string, body: unknown) {
  if (!isPlainObject(body) || !Array.isArray(body.rowIds) || body.rowIds.some((id) => typeof id !== "string")) {
    throw appError("validation_failed", 'The body must be { "rowIds": ["sr_…", …] }.');
  }
  const rowIds = body.rowIds as string[];
  if (rowIds.length > MAX_ROWS_PER_REQUEST) throw appError("too_many_rows", `At most ${MAX_ROWS_PER_REQUEST} rows per request.`);
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
