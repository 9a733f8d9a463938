import { readFile } from "node:fs/promises";
import { setPriority } from "node:os";
import { appError, isAppError, type ErrorCode } from "../errors.ts";
import { detectKind, type Detected } from "./detect.ts";
import { passagesOf, type PassageRequest, type PassagesOfContent } from "./passages.ts";
import { readContent } from "./read-content.ts";
import { writeSheetRows, type SheetRowsResult, type SheetRowsTask } from "./sheet-rows.ts";
import type { ExtractInput, ExtractLimits, ExtractedContent } from "./types.ts";

// The entry point of an extraction worker thread (see extract-pool.ts). Errors cross the thread
// boundary as plain data: an AppError's code and message, never a raw exception text.

// Parsing is bulk work and the request thread is latency work: on Linux this lowers the priority
// of this thread alone, so that a busy pool on a small machine never takes the CPU from requests.
try {
  setPriority(0, 10);
} catch {
  // Not permitted or not supported here: the thread runs at the normal priority.
}

/** The document's bytes, or the path of a stored file, which the thread reads itself. */
export type ExtractSource = Omit<ExtractInput, "bytes"> & ({ bytes: Uint8Array } | { path: string });

export interface ExtractTask {
  source: ExtractSource;
  limits: ExtractLimits;
  /** An image is detected and passed back without content, instead of refused. */
  imagesPass?: boolean;
  /** Only the passages relevant to this request come back, instead of the whole text. */
  passages?: PassageRequest;
}

export type ExtractTaskResult =
  | { ok: true; detected: Detected; content?: ExtractedContent; passages?: PassagesOfContent }
  | { ok: false; code: ErrorCode; message: string; internal?: string };

export default async function extractTask(
  task: ExtractTask | SheetRowsTask,
): Promise<ExtractTaskResult | SheetRowsResult> {
  // An import's worksheet (sheet-rows.ts), not a document to read.
  if ("sheetRows" in task) return writeSheetRows(task.sheetRows);
  try {
    const { source } = task;
    const bytes =
      "path" in source
        ? await readFile(source.path)
        : Buffer.from(source.bytes.buffer, source.bytes.byteOffset, source.bytes.byteLength);
    if (bytes.length === 0) throw appError("empty_file");
    const input = { ...source, bytes };
    const detected = detectKind(bytes, input.contentType, input.name ?? input.url ?? "");
    if (detected.kind === "image") {
      if (task.imagesPass) return { ok: true, detected };
      throw appError("unsupported_file", "Images cannot be read as text.");
    }
    const content = await readContent(input, detected.kind, task.limits);
    if (!content.text.trim()) throw appError("empty_file");
    if (task.passages) return { ok: true, detected, passages: passagesOf(content, task.passages) };
    return { ok: true, detected, content };
  } catch (e) {
    if (isAppError(e)) return { ok: false, code: e.code, message: e.message };
    // A parser that overflows its stack (deeply nested markup) or trips on a malformed file.
    const internal = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return {
      ok: false,
      code: "corrupt_file",
      message: "The file could not be read: it is malformed or too deeply nested.",
      internal,
    };
  }
}
