import type { Tx } from "../../db/database.ts";
import type { Work } from "../../db/work.ts";
import { appError } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { columnType } from "../column-types/index.ts";
import { nameKey, toColumnView, type ColumnRecord, type ColumnView } from "../column-model.ts";
import { resolveColumnFields, type ColumnInput, type ResolvedColumnFields } from "./input.ts";
import { loadBase, loadColumns, touchBase, type BaseContext } from "../base-context.ts";
import { directDependents, runIfColumnIds } from "../graph.ts";
import { assertBelow, lockOwner, QUOTAS } from "../limits.ts";
import { finishedCellsOfColumn, markStale } from "../cells/index.ts";
import { inputHashIn } from "../input-hash.ts";
import { dropColumnValues, setColumnValues } from "../rows/values.ts";
import type { ProviderName } from "../model-spec.ts";
import { fillOf } from "../fill/schema.ts";
import { renameInFill } from "../fill/resolve.ts";
import { refreshFormulas } from "./formula-refresh.ts";
import { refreshWriterEdges, releaseOutput } from "./writer-edges.ts";
import type { StoredRunIf } from "./run-if.ts";
import { prismaFields, writeJsonFields } from "./json-fields.ts";

const EMPTY: ResolvedColumnFields = {
  name: "",
  type: "short-text",
  isPrimary: false,
  isAiEnabled: false,
  instructions: "",
  inputColumnIds: [],
  tools: [],
  columnOptions: {},
  fill: null,
  runIf: null,
};

// Fields whose change makes existing AI values out of date.
const AI_FIELDS = [
  "type",
  "isAiEnabled",
  "instructions",
  "inputColumnIds",
  "tools",
  "columnOptions",
  "fill",
  "runIf",
] as const;

/** `providers`: the deployment's configured model providers (a bare columnOptions.model names the only one). */
export async function createColumn(
  { tx, emit }: Work,
  workspaceId: string,
  baseId: string,
  input: ColumnInput,
  providers: readonly ProviderName[],
): Promise<ColumnView> {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const column = await insertColumn(tx, baseCtx, input, providers);
  await touchBase(tx, baseCtx.baseId);
  emit({ type: "structure.changed", workspaceId, baseId: baseCtx.baseId });
  return toColumnView(column);
}

export async function updateColumn(
  { tx, emit }: Work,
  workspaceId: string,
  baseId: string,
  columnId: string,
  input: ColumnInput,
  providers: readonly ProviderName[],
): Promise<ColumnView> {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const column = await updateColumnRecord(tx, baseCtx, columnId, input, providers);
  await touchBase(tx, baseCtx.baseId);
  emit({ type: "structure.changed", workspaceId, baseId: baseCtx.baseId });
  return toColumnView(column);
}

/** Inserts a column into a loaded base. New AI columns do not run for existing rows until asked. */
export async function insertColumn(
  tx: Tx,
  baseCtx: BaseContext,
  input: ColumnInput,
  providers: readonly ProviderName[],
): Promise<ColumnRecord> {
  await lockOwner(tx, "bases", baseCtx.baseId);
  const others = await loadColumns(tx, baseCtx.sheetId);
  assertBelow(others.length, QUOTAS.columnsPerBase, `A base has at most ${QUOTAS.columnsPerBase} columns`);
  const id = newId.column();
  const fields = await resolveColumnFields(
    others,
    { ...EMPTY, type: input.type ?? "short-text" },
    input,
    id,
    providers,
  );
  if (fields.isPrimary && others.some((c) => c.isPrimary)) {
    const primary = others.find((c) => c.isPrimary)!;
    throw appError(
      "primary_column_conflict",
      `"${primary.name}" is already the primary column; a base has exactly one.`,
    );
  }
  const position = Math.min(input.index ?? others.length, others.length);
  await shiftPositions(tx, baseCtx.sheetId, position, +1);
  const created = await tx.column.create({
    data: {
      id,
      sheetId: baseCtx.sheetId,
      position,
      nameKey: nameKey(fields.name),
      ...prismaFields(fields),
      columnOptions: fields.columnOptions as object,
    },
  });
  if (fields.fill || fields.runIf) await writeJsonFields(tx, id, fields);
  const column = {
    ...created,
    fill: fields.fill as ColumnRecord["fill"],
    runIf: fields.runIf as ColumnRecord["runIf"],
  };
  if (fields.fill) await refreshFormulas(tx, baseCtx.sheetId, [...others, column], [id]);
  column.writerColumnIds = await refreshWriterEdges(tx, baseCtx.sheetId, id);
  return column;
}

export async function updateColumnRecord(
  tx: Tx,
  baseCtx: BaseContext,
  columnId: string,
  input: ColumnInput,
  providers: readonly ProviderName[],
): Promise<ColumnRecord> {
  const others = await loadColumns(tx, baseCtx.sheetId);
  const current = others.find((c) => c.id === columnId);
  if (!current) throw appError("column_not_found", `No column "${columnId}" in this base.`);
  const before: ResolvedColumnFields = {
    ...current,
    columnOptions: current.columnOptions as Record<string, unknown>,
    fill: fillOf(current),
    runIf: current.runIf as StoredRunIf | null,
  };
  const fields = await resolveColumnFields(others, before, input, columnId, providers);

  if (current.isPrimary && input.isPrimary === false) {
    throw appError(
      "primary_column_required",
      "A base has exactly one primary column: make another column primary instead.",
    );
  }
  if (fields.isPrimary && !current.isPrimary) {
    // Making a column primary hands the role over: there is exactly one primary at all times.
    await tx.column.updateMany({ where: { sheetId: baseCtx.sheetId, isPrimary: true }, data: { isPrimary: false } });
  }
  if (fields.type !== current.type) await convertValues(tx, baseCtx.sheetId, current, fields);

  const aiChanged = AI_FIELDS.some((f) => JSON.stringify(fields[f]) !== JSON.stringify(before[f]));
  if (input.index !== undefined && input.index !== current.position)
    await moveColumn(tx, baseCtx.sheetId, current, input.index, others.length);
  const updated = await tx.column.update({
    where: { id: columnId },
    data: {
      ...prismaFields(fields),
      nameKey: nameKey(fields.name),
      columnOptions: fields.columnOptions as object,
      ...(aiChanged ? { configVersion: { increment: 1 } } : {}),
      updatedAt: new Date(),
    },
  });
  if (JSON.stringify([fields.fill, fields.runIf]) !== JSON.stringify([before.fill, before.runIf]))
    await writeJsonFields(tx, columnId, fields);
  updated.fill = fields.fill as ColumnRecord["fill"];
  updated.runIf = fields.runIf as ColumnRecord["runIf"];
  const columns = others.map((c) => (c.id === columnId ? updated : c));
  if (fields.name !== current.name) await renameInFills(tx, columns, current.name, fields.name);
  if (aiChanged) await markChangedStale(tx, columns, updated);
  if (aiChanged && (fields.fill || before.fill || fields.type !== current.type))
    await refreshFormulas(tx, baseCtx.sheetId, columns, [columnId]);
  updated.writerColumnIds = await refreshWriterEdges(tx, baseCtx.sheetId, columnId);
  return updated;
}

/** The fills that name a renamed column follow it, so they keep reading the same column. */
async function renameInFills(tx: Tx, columns: readonly ColumnRecord[], from: string, to: string) {
  for (const c of columns) {
    const fill = fillOf(c);
    if (!fill) continue;
    const renamed = await renameInFill(fill, from, to);
    if (JSON.stringify(renamed) !== JSON.stringify(fill))
      await writeJsonFields(tx, c.id, { fill: renamed, runIf: c.runIf as StoredRunIf | null });
  }
}

export async function deleteColumn(
  { tx, emit }: Work,
  workspaceId: string,
  baseId: string,
  columnId: string,
  force: boolean,
) {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const columns = await loadColumns(tx, baseCtx.sheetId);
  const column = columns.find((c) => c.id === columnId);
  if (!column) throw appError("column_not_found", `No column "${columnId}" in this base.`);
  if (columns.length === 1) throw appError("primary_column_required", "The last column of a base cannot be deleted.");
  // Reading what another column writes is not using it: only inputs and conditions count.
  const dependents = directDependents(
    columns.map((c) => ({ ...c, writerColumnIds: [] })),
    columnId,
  );
  await releaseOutput(tx, columns, column, force);
  if (!force && column.isPrimary) {
    throw appError(
      "primary_column_required",
      "The primary column cannot be deleted; make another column primary first, or pass ?force=true.",
    );
  }
  if (!force && dependents.length > 0) {
    const names = dependents.map((id) => columns.find((c) => c.id === id)!.name);
    throw appError(
      "column_in_use",
      `Columns ${names.map((n) => `"${n}"`).join(", ")} use this column as input or in their run condition; pass ?force=true to delete it anyway.`,
      { dependents },
    );
  }
  for (const d of columns.filter((c) => dependents.includes(c.id))) {
    await tx.column.update({
      where: { id: d.id },
      data: { inputColumnIds: d.inputColumnIds.filter((i) => i !== columnId), configVersion: { increment: 1 } },
    });
    // A condition cannot lose one of its columns and keep its meaning: it goes as a whole.
    if (runIfColumnIds(d.runIf).includes(columnId)) await writeJsonFields(tx, d.id, { fill: fillOf(d), runIf: null });
  }
  await tx.column.delete({ where: { id: columnId } });
  await shiftPositions(tx, baseCtx.sheetId, column.position + 1, -1);
  if (column.isPrimary) {
    const next = columns.find((c) => c.id !== columnId)!;
    await tx.column.update({ where: { id: next.id }, data: { isPrimary: true } });
  }
  await dropColumnValues(tx, baseCtx.sheetId, columnId);
  const remaining = (await loadColumns(tx, baseCtx.sheetId)).filter((c) => c.id !== columnId);
  await refreshFormulas(tx, baseCtx.sheetId, remaining, dependents);
  await refreshWriterEdges(tx, baseCtx.sheetId);
  await touchBase(tx, baseCtx.baseId);
  emit({ type: "structure.changed", workspaceId, baseId: baseCtx.baseId });
  return { id: columnId, deleted: true, cleanedDependents: dependents };
}

/**
 * The column's AI settings changed: its generated cells whose input hash changed are stale (not
 * re-run). A change the prompt does not see (the type, a rename) leaves every hash as it was.
 */
async function markChangedStale(tx: Tx, columns: readonly ColumnRecord[], column: ColumnRecord) {
  const cells = await finishedCellsOfColumn(tx, column.id);
  const changed = cells.filter((c) => c.input_hash !== inputHashIn(columns, column, c.values ?? {}));
  await markStale(
    tx,
    changed.map((c) => ({ rowId: c.row_id, columnId: column.id })),
  );
}

async function shiftPositions(tx: Tx, sheetId: string, from: number, delta: number) {
  await tx.column.updateMany({ where: { sheetId, position: { gte: from } }, data: { position: { increment: delta } } });
}

async function moveColumn(tx: Tx, sheetId: string, column: ColumnRecord, target: number, count: number) {
  const to = Math.min(target, count - 1);
  if (to > column.position) {
    await tx.column.updateMany({
      where: { sheetId, position: { gt: column.position, lte: to } },
      data: { position: { decrement: 1 } },
    });
  } else {
    await tx.column.updateMany({
      where: { sheetId, position: { gte: to, lt: column.position } },
      data: { position: { increment: 1 } },
    });
  }
  await tx.column.update({ where: { id: column.id }, data: { position: to } });
}

/** A type change re-normalises every value; values the new type cannot hold are cleared. */
async function convertValues(tx: Tx, sheetId: string, column: ColumnRecord, fields: ResolvedColumnFields) {
  const type = columnType(fields.type)!;
  const rows = await tx.$queryRawUnsafe<{ id: string; v: string }[]>(
    `SELECT id, "values"->>$1 AS v FROM rows WHERE sheet_id = $2 AND "values" ? $1`,
    column.id,
    sheetId,
  );
  const converted: { rowId: string; value: string }[] = [];
  for (const r of rows) {
    if (r.v === "") continue;
    const n = type.normalize(r.v, fields.columnOptions);
    const next = n.ok ? n.value : "";
    if (next !== r.v) converted.push({ rowId: r.id, value: next });
  }
  await setColumnValues(tx, column.id, converted);
}
