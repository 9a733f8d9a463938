import path from "node:path";
import type { Config } from "../config.ts";
import { inTransaction } from "../db/work.ts";
import { isAppError } from "../errors.ts";
import { loadBase, loadColumns, touchBase } from "../domain/base-context.ts";
import { insertColumn, updateColumnRecord } from "../domain/columns/index.ts";
import { ColumnIndex } from "../domain/rows/index.ts";
import { mergeKeyColumns } from "../domain/rows/index.ts";
import { configuredProviders } from "../domain/model-spec.ts";
import { analyzeFile, placeholderColumn, type ImportOptions } from "./analyze.ts";
import { writeBatch } from "./batch.ts";
import { IMPORT_LIMITS } from "./limits.ts";
import { ParseFailure, readRecords, type ImportFormat } from "./records.ts";
import { failImport, type ImportError, type ImportRow } from "./store.ts";
import { announce, holdLease, LeaseLost, type ImportRuntime, type StoredPlan } from "./progress.ts";
import { removeImportFile } from "./sheet-rows.ts";

// One import, start to end, as a worker runs it: the first pass (analyzeFile) and the columns it
// creates commit together; then each batch of lines commits with the import's progress
// (batch.ts). A worker that dies leaves the import to be claimed again, and the next one skips
// the lines already committed, so no batch is written twice or half.

export const importFilePath = (config: Pick<Config, "dataDir">, storagePath: string) =>
  path.resolve(config.dataDir, "files", path.basename(storagePath));

/** Runs an import to its end, or until `stopping()` says so between two batches (it resumes later). */
export async function runImport(
  rt: ImportRuntime,
  job: ImportRow,
  owner: string,
  stopping: () => boolean = () => false,
): Promise<void> {
  const file = importFilePath(rt.config, job.storagePath);
  const options = job.options as unknown as ImportOptions;
  const format = job.format as ImportFormat;
  try {
    let plan = job.plan as unknown as StoredPlan | null;
    if (!plan) plan = await prepare(rt, job, file, format, options, owner);
    let start = job.linesDone;
    let batch: { line: number; fields: string[] }[] = [];
    let batchChars = 0;
    let index = 0;
    let headerSkipped = !options.header || format === "jsonl";
    const batchLines = rt.db.copyIn ? IMPORT_LIMITS.bulkBatchLines : IMPORT_LIMITS.batchLines;
    const flush = async () => {
      if (stopping()) throw new LeaseLost();
      start = await writeBatch(rt, job, plan!, options, owner, start, batch);
      batch = [];
      batchChars = 0;
    };
    for await (const record of readRecords(file, format, { sheet: options.sheet })) {
      if (!headerSkipped && "fields" in record) {
        headerSkipped = true;
        continue;
      }
      if (index++ < start) continue;
      const fields = "object" in record ? plan.keys!.map((k) => record.object[k] ?? "") : record.fields;
      batch.push({ line: record.line, fields });
      for (const f of fields) batchChars += f.length;
      if (batch.length >= batchLines || batchChars >= IMPORT_LIMITS.batchChars) await flush();
    }
    await flush();
    await finish(rt, job, owner);
  } catch (e) {
    if (e instanceof LeaseLost) return;
    await inTransaction(rt, async (w) => {
      const row = await failImport(w.tx, job.id, owner, failureOf(e));
      if (row) announce(w, row);
    });
    if (!(e instanceof ParseFailure) && !isAppError(e)) console.error(`[cellwright] import ${job.id} failed:`, e);
  }
  await removeImportFile(file);
}

function failureOf(e: unknown): ImportError {
  if (e instanceof ParseFailure) return { line: e.line, column: null, code: "invalid_file", message: e.message };
  if (isAppError(e)) return { line: 0, column: null, code: e.code, message: e.message };
  return { line: 0, column: null, code: "internal_error", message: "The import stopped on an unexpected error." };
}

/** The first pass, then the new columns and the plan, in one transaction under the lease. */
async function prepare(
  rt: ImportRuntime,
  job: ImportRow,
  file: string,
  format: ImportFormat,
  options: ImportOptions,
  owner: string,
): Promise<StoredPlan> {
  const { sheetId } = await loadBase(rt.db.prisma, job.workspaceId, job.baseId);
  const before = await loadColumns(rt.db.prisma, sheetId);
  const placeholder = placeholderColumn(before, await rt.db.prisma.row.count({ where: { sheetId } }));
  const analysis = await analyzeFile(file, format, options, before, placeholder);
  return inTransaction(rt, async (w) => {
    await holdLease(w, job.id, owner);
    const baseCtx = await loadBase(w.tx, job.workspaceId, job.baseId);
    const created: string[] = [];
    const targets: (string | null)[] = [];
    for (const field of analysis.fields) {
      if (field.create) {
        const { type, isPrimary, replaces } = field.create;
        const column = replaces
          ? await updateColumnRecord(
              w.tx,
              baseCtx,
              replaces,
              { name: field.name, type },
              configuredProviders(rt.config.ai),
            )
          : await insertColumn(w.tx, baseCtx, { name: field.name, type, isPrimary }, configuredProviders(rt.config.ai));
        created.push(column.name);
        targets.push(column.id);
      } else targets.push(field.columnId);
    }
    const columns = await loadColumns(w.tx, baseCtx.sheetId);
    const mergeOn =
      options.mergeOn.length > 0 ? mergeKeyColumns(new ColumnIndex(columns), options.mergeOn).map((c) => c.id) : [];
    const plan: StoredPlan = { targets, keys: analysis.keys, conventions: analysis.conventions, mergeOn };
    if (created.length > 0) {
      await touchBase(w.tx, baseCtx.baseId);
      w.emit({ type: "structure.changed", workspaceId: baseCtx.workspaceId, baseId: baseCtx.baseId });
    }
    const row = await w.tx.importJob.update({
      where: { id: job.id },
      data: {
        plan: plan as object,
        status: "running",
        startedAt: new Date(),
        linesTotal: analysis.lines,
        createdColumns: created,
        ignoredColumns: analysis.ignored,
      },
    });
    announce(w, row);
    return plan;
  });
}

async function finish(rt: ImportRuntime, job: ImportRow, owner: string) {
  await inTransaction(rt, async (w) => {
    await holdLease(w, job.id, owner);
    const row = await w.tx.importJob.update({
      where: { id: job.id },
      data: { status: "done", finishedAt: new Date(), leaseOwner: null, leaseUntil: null },
    });
    announce(w, row);
  });
}
