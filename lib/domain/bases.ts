import type { Tx } from "../db/database.ts";
import type { Work } from "../db/work.ts";
import { appError } from "../errors.ts";
import { newId } from "../ids.ts";
import { toColumnView, type ColumnRecord, type ColumnView } from "./column-model.ts";
import { columnInputSchema, type ColumnInput } from "./columns/index.ts";
import { insertColumn, updateColumnRecord } from "./columns/index.ts";
import type { ProviderName } from "./model-spec.ts";
import { loadBase, loadColumns, type BaseContext } from "./base-context.ts";
import { z } from "zod";

export const baseNameSchema = z
  .string()
  .trim()
  .min(1, "A base name is 1 to 200 characters.")
  .max(200, "A base name is 1 to 200 characters.")
  .describe("The base's name, 1 to 200 characters.");

export const baseSettingsSchema = z
  .object({
    lowConfidenceThreshold: z
      .number()
      .min(0)
      .max(1)
      .describe("AI values with a confidence below this (0 to 1) are flagged in the grid."),
  })
  .partial()
  .strict()
  .describe("Settings of the base; a patch is merged into the current ones.");

export interface BaseStructure {
  sheet: { id: string; baseId: string; name: string };
  sheetColumns: ColumnView[];
  primaryColumn: ColumnView | null;
}

export async function getBaseStructure(tx: Tx, workspaceId: string, baseId: string): Promise<BaseStructure> {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const sheet = await tx.sheet.findUniqueOrThrow({ where: { id: baseCtx.sheetId } });
  const columns = (await loadColumns(tx, baseCtx.sheetId)).map(toColumnView);
  return {
    sheet: { id: sheet.id, baseId: baseCtx.baseId, name: sheet.name },
    sheetColumns: columns,
    primaryColumn: columns.find((c) => c.isPrimary) ?? null,
  };
}

export const createBaseSchema = z
  .object({
    baseName: baseNameSchema.optional().describe('The base\'s name, 1 to 200 characters; default "Untitled base".'),
    columns: z
      .array(columnInputSchema)
      .max(200)
      .optional()
      .describe(
        'Columns in order, at most 200; default one primary short-text column "Name". Inputs may name columns created later.',
      ),
    settings: baseSettingsSchema.optional(),
  })
  .strict();

/**
 * Creates a base with its sheet. Without columns it gets a primary "Name" column; otherwise the
 * columns are created in order (inputs may name earlier or later columns) and the first one is
 * the primary unless one says otherwise.
 */
export async function createBase(
  { tx, emit }: Work,
  workspaceId: string,
  input: z.infer<typeof createBaseSchema>,
  providers: readonly ProviderName[],
) {
  const id = await uniqueBaseId(tx);
  const name = input.baseName ?? "Untitled base";
  await tx.base.create({ data: { id, workspaceId, name, settings: input.settings ?? {} } });
  const sheetId = newId.sheet();
  await tx.sheet.create({ data: { id: sheetId, baseId: id, name } });
  const specs: ColumnInput[] = input.columns?.length
    ? input.columns
    : [{ name: "Name", type: "short-text", isPrimary: true }];
  const primaries = specs.filter((c) => c.isPrimary).length;
  if (primaries > 1) throw appError("primary_column_conflict", "Only one column can be the primary column.");
  const baseCtx: BaseContext = { baseId: id, workspaceId, sheetId, name };
  // Inputs and run conditions may point forward, so columns are created first and wired up second.
  const created: ColumnRecord[] = [];
  for (const [i, spec] of specs.entries()) {
    const { inputColumnIds, inputColumns, runIf, ...rest } = spec;
    const isPrimary = primaries === 0 ? i === 0 : Boolean(spec.isPrimary);
    created.push(await insertColumn(tx, baseCtx, { ...rest, isPrimary, type: spec.type ?? "short-text" }, providers));
  }
  for (const [i, spec] of specs.entries()) {
    if (spec.inputColumnIds || spec.inputColumns || spec.runIf) {
      await updateColumnRecord(
        tx,
        baseCtx,
        created[i].id,
        { inputColumnIds: spec.inputColumnIds, inputColumns: spec.inputColumns, runIf: spec.runIf },
        providers,
      );
    }
  }
  // Its first columns are a structure change too (their indexes follow it).
  emit({ type: "structure.changed", workspaceId, baseId: id });
  return { baseId: id, ...(await getBaseStructure(tx, workspaceId, id)) };
}

async function uniqueBaseId(tx: Tx): Promise<string> {
  for (;;) {
    const id = newId.base();
    if (!(await tx.base.findUnique({ where: { id }, select: { id: true } }))) return id;
  }
}

export interface BaseSummary {
  baseId: string;
  name: string;
  rowCount: number;
  columnCount: number;
  settings: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export async function listBases(tx: Tx, workspaceId: string): Promise<BaseSummary[]> {
  const bases = await tx.base.findMany({ where: { workspaceId }, orderBy: { createdAt: "desc" } });
  if (bases.length === 0) return [];
  const counts = await tx.$queryRawUnsafe<{ base_id: string; rows: bigint; columns: bigint }[]>(
    `SELECT s.base_id,
       (SELECT count(*) FROM rows r WHERE r.sheet_id = s.id) AS rows,
       (SELECT count(*) FROM columns c WHERE c.sheet_id = s.id) AS columns
     FROM sheets s WHERE s.base_id = ANY($1::text[])`,
    bases.map((b) => b.id),
  );
  const byBase = new Map(counts.map((c) => [c.base_id, c]));
  return bases.map((b) => summary(b, byBase.get(b.id)));
}

export async function getBaseSummary(tx: Tx, workspaceId: string, baseId: string): Promise<BaseSummary> {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const base = await tx.base.findUniqueOrThrow({ where: { id: baseCtx.baseId } });
  const [rows, columns] = await Promise.all([
    tx.row.count({ where: { sheetId: baseCtx.sheetId } }),
    tx.column.count({ where: { sheetId: baseCtx.sheetId } }),
  ]);
  return summary(base, { rows: BigInt(rows), columns: BigInt(columns) });
}

function summary(
  b: { id: string; name: string; settings: unknown; createdAt: Date; updatedAt: Date },
  counts?: { rows: bigint; columns: bigint },
): BaseSummary {
  return {
    baseId: b.id,
    name: b.name,
    rowCount: Number(counts?.rows ?? 0),
    columnCount: Number(counts?.columns ?? 0),
    settings: (b.settings ?? {}) as Record<string, unknown>,
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  };
}

export const updateBaseSchema = z.object({ baseName: baseNameSchema, settings: baseSettingsSchema }).partial().strict();

export async function updateBase(
  { tx, emit }: Work,
  workspaceId: string,
  baseId: string,
  patch: z.infer<typeof updateBaseSchema>,
) {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const current = await tx.base.findUniqueOrThrow({ where: { id: baseCtx.baseId } });
  await tx.base.update({
    where: { id: baseCtx.baseId },
    data: {
      ...(patch.baseName ? { name: patch.baseName } : {}),
      ...(patch.settings ? { settings: { ...(current.settings as object), ...patch.settings } } : {}),
      updatedAt: new Date(),
    },
  });
  if (patch.baseName) await tx.sheet.update({ where: { id: baseCtx.sheetId }, data: { name: patch.baseName } });
  emit({ type: "structure.changed", workspaceId, baseId: baseCtx.baseId });
  return getBaseSummary(tx, workspaceId, baseId);
}

export async function deleteBase({ tx, emit }: Work, workspaceId: string, baseId: string) {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const files = [
    ...(await tx.storedFile.findMany({ where: { baseId: baseCtx.baseId }, select: { storagePath: true } })),
    // An import's file waiting for its worker goes with its base as well.
    ...(await tx.importJob.findMany({
      where: { baseId: baseCtx.baseId, status: { in: ["queued", "running"] } },
      select: { storagePath: true },
    })),
  ];
  // Foreign keys cascade from the base to its sheet, columns, rows, cells, chat and file records;
  // the files' bytes are removed once that has committed.
  await tx.base.delete({ where: { id: baseCtx.baseId } });
  if (files.length > 0) emit({ type: "files.released", storagePaths: files.map((f) => f.storagePath) });
  emit({ type: "structure.changed", workspaceId, baseId: baseCtx.baseId });
  return { baseId: baseCtx.baseId, deleted: true };
}
