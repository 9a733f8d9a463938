import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { appError } from "../errors.ts";
import { EXTRACT_HEAP_MB, runSheetRowsTask } from "../extract/extract-pool.ts";
import { IMPORT_LIMITS } from "./limits.ts";
import { ParseFailure } from "./parse-failure.ts";
import { spooledRecords, spoolPath } from "./spool.ts";

// An XLSX import reads its worksheet in an extraction thread, under the pool's heap limit and a
// deadline, which writes the rows beside the stored file (lib/extract/sheet-rows.ts). Both passes
// of the import, and a worker that resumes it, then stream those rows: the workbook is parsed
// once, and never on the request thread.

/** Deletes an import's stored file and the rows read from it (spool.ts), whole or partly written. */
export async function removeImportFile(file: string): Promise<void> {
  const spool = spoolPath(file);
  await Promise.all([rm(file, { force: true }), rm(spool, { force: true }), rm(`${spool}.partial`, { force: true })]);
}

export async function* sheetRows(
  file: string,
  sheet: string | undefined,
): AsyncGenerator<{ line: number; fields: string[] }> {
  const out = spoolPath(file);
  if (!existsSync(out)) await writeRows(file, sheet, out);
  yield* spooledRecords(out);
}

async function writeRows(path: string, sheet: string | undefined, out: string) {
  const deadline = AbortSignal.timeout(IMPORT_LIMITS.xlsxReadMs);
  let result;
  try {
    result = await runSheetRowsTask(
      { sheetRows: { path, sheet, out, maxInflatedBytes: IMPORT_LIMITS.xlsxInflatedBytes } },
      deadline,
    );
  } catch (e) {
    if (deadline.aborted)
      throw appError(
        "timeout",
        `Reading the workbook took longer than ${Math.round(IMPORT_LIMITS.xlsxReadMs / 60_000)} minutes.`,
      );
    if ((e as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY")
      throw appError("file_too_large", `Reading the workbook needs more than ${EXTRACT_HEAP_MB} MB of memory.`);
    throw e;
  }
  if (result.ok) return;
  if (result.line !== undefined) throw new ParseFailure(result.line, result.message);
  throw appError(result.code, result.message);
}
