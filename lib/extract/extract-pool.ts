import path from "node:path";
import { availableParallelism } from "node:os";
import { Piscina } from "piscina";
import type { ExtractTask, ExtractTaskResult } from "./extract-worker.ts";
import type { SheetRowsResult, SheetRowsTask } from "./sheet-rows.ts";

// One process-wide pool of extraction threads. A worker that runs past its deadline is
// terminated with its task, and one that grows past its heap limit dies alone: neither can stall
// or crash the server. Threads start on demand and exit when idle.

/** Heap one extraction may use; a document that needs more is refused as too large. */
export const EXTRACT_HEAP_MB = 512;

let pool: Piscina | undefined;

function extractPool(): Piscina {
  pool ??= new Piscina({
    // Resolved from the project root at run time: the worker is its own module graph, loaded by
    // Node (which runs TypeScript by stripping types), not part of the server bundle.
    filename: path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "extract", "extract-worker.ts"),
    minThreads: 0,
    maxThreads: Math.max(2, Math.min(4, availableParallelism())),
    idleTimeout: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: EXTRACT_HEAP_MB, maxYoungGenerationSizeMb: 64, stackSizeMb: 16 },
  });
  return pool;
}

export function runExtractTask(task: ExtractTask, signal: AbortSignal): Promise<ExtractTaskResult> {
  return extractPool().run(task, { signal });
}

/** An import's worksheet, written out as rows by a thread of the same pool (sheet-rows.ts). */
export function runSheetRowsTask(task: SheetRowsTask, signal: AbortSignal): Promise<SheetRowsResult> {
  return extractPool().run(task, { signal });
}

/** Stops the threads (tests and shutdown); the next task starts a new pool. */
export async function closeExtractPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.close({ force: true });
}
