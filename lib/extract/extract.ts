import { appError } from "../errors.ts";
import type { Detected } from "./detect.ts";
import { EXTRACT_HEAP_MB, runExtractTask } from "./extract-pool.ts";
import type { ExtractTask } from "./extract-worker.ts";
import type { PassageRequest, PassagesOfContent } from "./passages.ts";
import { DEFAULT_EXTRACT_LIMITS, type ExtractInput, type ExtractLimits, type ExtractedContent } from "./types.ts";

// Documents → readable text, detected and parsed in a worker thread (extract-pool.ts). Both
// throw empty_file, unsupported_file, corrupt_file, file_too_large or timeout.

/** Bytes of any supported kind → text. Images are refused: the caller hands those to a vision model. */
export async function extractContent(
  input: ExtractInput,
  limits: ExtractLimits = DEFAULT_EXTRACT_LIMITS,
  signal?: AbortSignal,
): Promise<ExtractedContent> {
  if (input.bytes.length === 0) throw appError("empty_file");
  return (await runInWorker({ source: input, limits }, signal)).content!;
}

/**
 * Bytes → the passages of their text most relevant to a query, and an excerpt: parsing and
 * ranking both run in the worker, so the whole text of a large document never reaches this thread.
 */
export async function extractPassages(
  input: ExtractInput,
  request: PassageRequest,
  limits: ExtractLimits = DEFAULT_EXTRACT_LIMITS,
  signal?: AbortSignal,
): Promise<PassagesOfContent> {
  if (input.bytes.length === 0) throw appError("empty_file");
  return (await runInWorker({ source: input, limits, passages: request }, signal)).passages!;
}

/**
 * A stored file, read by the worker from its path so that its bytes never pass through the
 * request thread: its kind and, for anything but an image, its text, which proves it readable.
 */
export async function inspectStoredFile(
  source: Omit<ExtractInput, "bytes"> & { path: string },
  limits: ExtractLimits = DEFAULT_EXTRACT_LIMITS,
): Promise<{ detected: Detected; content?: ExtractedContent }> {
  return runInWorker({ source, limits, imagesPass: true });
}

async function runInWorker(task: ExtractTask, signal?: AbortSignal) {
  const { limits } = task;
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const combined = signal ? AbortSignal.any([deadline, signal]) : deadline;
  let result;
  try {
    result = await runExtractTask(task, combined);
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    if (deadline.aborted) throw appError("timeout", `Reading the file took longer than ${limits.timeoutMs} ms.`);
    if ((e as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY") {
      throw appError("file_too_large", `Reading the file needs more than ${EXTRACT_HEAP_MB} MB of memory.`);
    }
    throw e;
  }
  if (!result.ok) {
    if (result.internal) console.warn("[cellwright] extraction failed:", result.internal);
    throw appError(result.code, result.message);
  }
  return result;
}
