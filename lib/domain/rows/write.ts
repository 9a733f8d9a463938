import type { Work } from "../../db/work.ts";
import type { Tx } from "../../db/database.ts";
import { appError } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { loadBase, loadColumns, touchBase } from "../base-context.ts";
import { checkNewRow, checkRowUpdate, ColumnIndex, normalizeCells } from "./input.ts";
import { expandedRow, standardRow, type RowValues, type ViewColumn } from "./view.ts";
import { cellStatesOfRows } from "./read.ts";
import type { RunPolicy } from "../runs/index.ts";
import { applyWrites } from "./apply.ts";
import { mergeKeyColumns, storedValues, upsertRows } from "./upsert.ts";
import { patchValues, type ValueEdit } from "./values.ts";
import { formulasAfterWrite } from "../formulas/after-write.ts";
import type { ColumnRecord } from "../column-model.ts";
import { eachInSlices, mapInSlices } from "../../slices.ts";

/**
 * The rows a write answers with: the standard form, or with `expand` the expanded form of the
 * cells as the write left them, read in one statement.
 */
async function answerRows(tx: Tx, columns: readonly ViewColumn[], rows: [string, RowValues][], expand: boolean) {
  if (!expand) return mapInSlices(rows, ([id, values]) => standardRow(columns, id, values));
  const states = await cellStatesOfRows(
    tx,
    rows.map(([id]) => id),
  );
  return mapInSlices(rows, ([id, values]) => expandedRow(columns, id, values, states.get(id) ?? new Map()));
}

/**
 * Add Rows (spec §4.4): all or nothing. Every problem of every row is reported at once, so each
 * row's shape is checked here (checkNewRow) together with its cells, not at the edge. With
 * `mergeOn` it is an upsert (upsert.ts): a row whose key matches an existing one updates it.
 */
export async function addRows(
  w: Work,
  workspaceId: string,
  baseId: string,
  body: { rows: readonly unknown[]; mergeOn?: readonly string[] },
  policy: RunPolicy,
  expand = false,
) {
  const { tx } = w;
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const columns = await loadColumns(tx, baseCtx.sheetId);
  const index = new ColumnIndex(columns);
  const key = body.mergeOn ? mergeKeyColumns(index, body.mergeOn) : undefined;
  const errors: { rowIndex: number; column?: string; code: string; message: string }[] = [];
  const inputs: Map<string, string>[] = [];

  await eachInSlices(body.rows, (raw, rowIndex) => {
    const row = checkNewRow(raw);
    if ("code" in row) {
      errors.push({ rowIndex, ...row });
      return;
    }
    const { values, problems } = normalizeCells(index, row.cells);
    for (const p of problems) errors.push({ rowIndex, ...p });
    inputs.push(values);
  });
  if (errors.length > 0) {
    throw appError("validation_failed", `${errors.length} problem(s) in the rows; nothing was added.`, { errors });
  }

  if (key) {
    const result = await upsertRows(w, baseCtx, columns, key, inputs, policy, "add-rows");
    return {
      rows: await answerRows(
        tx,
        columns,
        result.rowIds.map((id) => [id, result.values.get(id)!]),
        expand,
      ),
      createdRowIds: result.createdRowIds,
      updatedRowIds: result.updatedRowIds,
      runId: result.runId,
    };
  }
  const inserts = await mapInSlices(inputs, (values) => ({ id: newId.row(), values: storedValues(values) }));
  const { runId } = await applyWrites(
    w,
    baseCtx,
    columns,
    { inserts, updates: new Map(), current: new Map() },
    policy,
    "add-rows",
  );
  return {
    rows: await answerRows(
      tx,
      columns,
      inserts.map((r) => [r.id, r.values]),
      expand,
    ),
    runId,
  };
}

interface UpdateError {
  rowId: string | null;
  column?: string;
  code: string;
  message: string;
}

/**
 * Update Rows (spec §4.5): partial. Each row is applied whole or reported in `errors`, its shape
 * too. AI cells follow applyWrites' rules (re-run when their inputs changed).
 */
export async function updateRows(
  w: Work,
  workspaceId: string,
  baseId: string,
  { rows: rawRows }: { rows: readonly unknown[] },
  policy: RunPolicy,
  expand = false,
) {
  const input = await mapInSlices(rawRows, checkRowUpdate);
  const { tx } = w;
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const columns = await loadColumns(tx, baseCtx.sheetId);
  const index = new ColumnIndex(columns);
  const errors: UpdateError[] = [];
  const ids = input.flatMap((r) => ("code" in r ? [] : [r.id]));
  const current = await currentValues(tx, baseCtx.sheetId, ids);
  const updates = new Map<string, Map<string, string>>();

  await eachInSlices(input, (row) => {
    if ("code" in row) {
      errors.push(row);
      return;
    }
    if (!current.has(row.id)) {
      errors.push({ rowId: row.id, code: "row_not_found", message: `No row "${row.id}" in this base.` });
      return;
    }
    const { values: written, problems } = normalizeCells(index, row.cells);
    if (problems.length > 0) {
      for (const p of problems) errors.push({ rowId: row.id, ...p });
      return;
    }
    const merged = updates.get(row.id) ?? new Map<string, string>();
    for (const [id, v] of written) merged.set(id, v);
    updates.set(row.id, merged);
  });

  const { runId, values } = await applyWrites(
    w,
    baseCtx,
    columns,
    { inserts: [], updates, current },
    policy,
    "update-rows",
  );
  return { rows: await answerRows(tx, columns, [...values], expand), errors, runId };
}

/**
 * The rows' values as stored, by id. The ids go as one array parameter, not as one parameter each
 * (Prisma's `in`): the statement's text is then the same at any batch size, prepared once, and
 * PostgreSQL need not plan a list of 1,000 constants on every request.
 */
async function currentValues(tx: Tx, sheetId: string, ids: readonly string[]): Promise<Map<string, RowValues>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.$queryRawUnsafe<{ id: string; values: RowValues | null }[]>(
    `SELECT id, "values" FROM rows WHERE sheet_id = $1 AND id = ANY($2::text[])`,
    sheetId,
    [...new Set(ids)],
  );
  return new Map(rows.map((r) => [r.id, { ...(r.values ?? {}) }]));
}

/**
 * Review corrections: the values reviewers wrote into AI cells (their cells are stored by
 * cells/review.ts), and the formulas over them recomputed.
 */
/** Writes reviewers' values and the formulas over them; answers the formula cells that changed. */
export async function writeReviewedValues(
  tx: Tx,
  columns: readonly ColumnRecord[],
  edits: readonly ValueEdit[],
): Promise<FormulaChange[]> {
  await patchValues(tx, edits);
  const rows = await currentValues(
    tx,
    columns[0]?.sheetId ?? "",
    edits.map((e) => e.rowId),
  );
  const changes: FormulaChange[] = [];
  for (const [rowId, values] of rows) {
    const written = Object.fromEntries(edits.filter((e) => e.rowId === rowId).map((e) => [e.columnId, e.value]));
    for (const [columnId, value] of Object.entries(await formulasAfterWrite(columns, values, written)))
      if (value !== (values[columnId] ?? "")) changes.push({ rowId, columnId, before: values[columnId] ?? "", value });
  }
  await patchValues(tx, changes);
  return changes;
}

export type FormulaChange = ValueEdit & { before: string };

export async function deleteRows(w: Work, workspaceId: string, baseId: string, { rowIds }: { rowIds: string[] }) {
  const { tx } = w;
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const found = await tx.row.findMany({
    where: { sheetId: baseCtx.sheetId, id: { in: rowIds } },
    select: { id: true },
  });
  const foundIds = new Set(found.map((r) => r.id));
  if (found.length > 0) {
    await tx.row.deleteMany({ where: { sheetId: baseCtx.sheetId, id: { in: [...foundIds] } } });
    await touchBase(tx, baseCtx.baseId);
    w.emit({ type: "rows.changed", workspaceId, baseId: baseCtx.baseId, rowIds: [...foundIds], kind: "deleted" });
  }
  const errors = [...new Set(rowIds)]
    .filter((id) => !foundIds.has(id))
    .map((id) => ({ rowId: id, code: "row_not_found", message: `No row "${id}" in this base.` }));
  return { deletedRowIds: [...foundIds], errors };
}
