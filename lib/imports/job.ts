import { existsSync } from "node:fs";
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
import { castAhead, writeBatch, type Precast } from "./batch.ts";
import type { ColumnRecord } from "../domain/column-model.ts";
import { IMPORT_LIMITS } from "./limits.ts";
import { ParseFailure, readRecords, type ImportFormat } from "./records.ts";
import { failImport, type ImportError, type ImportRow } from "./store.ts";
import { announce, holdLease, LeaseLost, type ImportRuntime, type StoredPlan } from "./progress.ts";
import { removeImportFile } from "./sheet-rows.ts";
import { SpoolWriter, spoolPath } from "./spool.ts";

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
    // On PostgreSQL one batch is written while the next is read and cast for the columns the one
    // being written leaves (writeBatch casts again if they are not the next one's): the database's
    // work and the file's overlap. Batches still commit one after another, in order, each with its progress.
    let writing: InFlight | undefined;
    const castingAhead = rt.db.copyIn !== undefined;
    const flush = async () => {
      const lines = batch;
      batch = [];
      batchChars = 0;
      let precast: Precast | undefined;
      if (writing) {
        const columns = await writing.columns;
        if (columns && lines.length > 0) precast = await castAhead(columns, plan!, options, lines);
        start = await writing.done;
        writing = undefined;
      }
      if (stopping()) throw new LeaseLost();
      if (lines.length === 0) return;
      writing = startBatch(rt, job, plan!, options, owner, start, lines, precast);
      // The embedded database's one connection is the process's own: there, one batch at a time.
      if (!castingAhead) {
        start = await writing.done;
        writing = undefined;
      }
    };
    try {
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
      await flush();
    } finally {
      // A batch still in flight ends (commits or rolls back) before the import is failed or left.
      await writing?.done.catch(() => undefined);
    }
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

interface InFlight {
  done: Promise<number>;
  /** The columns the batch found, once it has read them; null if it ended before. */
  columns: Promise<readonly ColumnRecord[] | null>;
}

/** Starts writing a batch; its `columns` settle as soon as its transaction has read them. */
function startBatch(
  rt: ImportRuntime,
  job: ImportRow,
  plan: StoredPlan,
  options: ImportOptions,
  owner: string,
  start: number,
  lines: { line: number; fields: string[] }[],
  precast: Precast | undefined,
): InFlight {
  let found: (columns: readonly ColumnRecord[] | null) => void = () => undefined;
  const columns = new Promise<readonly ColumnRecord[] | null>((resolve) => (found = resolve));
  const done = writeBatch(rt, job, plan, options, owner, start, lines, { precast, onColumns: found });
  // Awaited later (the next flush, or runImport's finally): a failure meanwhile is no unhandled rejection.
  done.then(
    () => found(null),
    () => found(null),
  );
  return { done, columns };
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
  // A CSV file is parsed once: the first pass spools its records for the second (spool.ts).
  const spool = format === "csv" && !existsSync(spoolPath(file)) ? new SpoolWriter(spoolPath(file)) : undefined;
  let analysis;
  try {
    analysis = await analyzeFile(file, format, options, before, placeholder, undefined, spool);
    await spool?.done();
  } catch (e) {
    await spool?.abandon();
    throw e;
  }
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
