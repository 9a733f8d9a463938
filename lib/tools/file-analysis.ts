import { z } from "zod";
import { appError, isAppError } from "../errors.ts";
import { detectKind, extractPassages } from "../extract/index.ts";
import { safeFetch } from "../net/index.ts";
import { imageResult, nowIso, passageRequest, passagesResult } from "./documents.ts";
import { extractLimitsFrom } from "./limits.ts";
import type { CellTool, StoredFileContent, ToolContext, ToolResult } from "./types.ts";

// file-analysis: read a file, either uploaded (a stored-file id) or at an http(s) URL, and
// return the passages most relevant to the column's instructions. Images come back as an
// ImageOutput for the engine to pass to a vision-capable model.

const inputSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1)
    .max(2_048)
    .describe("An http(s) URL of the file, or the id of an uploaded file (file_…)."),
});
export type FileAnalysisInput = z.infer<typeof inputSchema>;

export type FileReference = { kind: "remote"; url: string } | { kind: "stored"; fileId: string };

/**
 * Accepts http(s) URLs and stored-file ids: bare, as `file:<id>` / `cellwright-file:<id>`, or as
 * the app's own relative file path (`/api/v1/files/<id>`).
 */
export function parseFileReference(value: string): FileReference {
  const v = value.trim();
  if (/^https?:\/\//i.test(v)) return { kind: "remote", url: v };
  const id =
    v.match(/^(?:(?:cellwright-)?file:(?:\/\/)?)?(file_[A-Za-z0-9]+)$/)?.[1] ??
    v.match(/^\/api\/v1\/files\/(file_[A-Za-z0-9]+)\/?$/)?.[1];
  if (id) return { kind: "stored", fileId: id };
  throw appError("invalid_value", "Expected an http(s) URL or an uploaded file id (file_…).", { value: v });
}

interface LoadedFile extends StoredFileContent {
  sourceUrl: string;
}

async function load(ref: FileReference, ctx: ToolContext): Promise<LoadedFile> {
  const { limits } = ctx;
  if (ref.kind === "stored") {
    if (!ctx.files || !ctx.workspaceId) {
      throw appError("tool_not_configured", "Uploaded files cannot be read here (no file store).");
    }
    const file = await ctx.files.read(ref.fileId, ctx.workspaceId);
    if (file.bytes.length > limits.maxFileBytes) {
      throw appError("file_too_large", `The file is larger than ${limits.maxFileBytes} bytes.`);
    }
    return { ...file, sourceUrl: `/api/v1/files/${ref.fileId}` };
  }
  try {
    const res = await safeFetch(ref.url, {
      maxBytes: limits.maxFileBytes,
      timeoutMs: limits.timeoutMs,
      connectTimeoutMs: limits.connectTimeoutMs,
      allowedPrivateHosts: limits.allowedPrivateHosts,
      allowedTargets: limits.allowedTargets,
      lookup: ctx.lookup,
      signal: ctx.signal,
    });
    if (res.status >= 400) {
      throw appError("fetch_failed", `The file URL answered HTTP ${res.status}.`, { status: res.status });
    }
    const name = decodeURIComponent(new URL(res.finalUrl).pathname.split("/").pop() ?? "") || res.finalUrl;
    return { name, contentType: res.contentType, bytes: res.body, sourceUrl: res.finalUrl };
  } catch (e) {
    // A partial PDF or spreadsheet is unreadable, so an oversized download is a file error.
    if (isAppError(e) && e.code === "payload_too_large") {
      throw appError("file_too_large", `The file is larger than ${limits.maxFileBytes} bytes.`);
    }
    throw e;
  }
}

async function execute(input: FileAnalysisInput, ctx: ToolContext): Promise<ToolResult> {
  const file = await load(parseFileReference(input.url), ctx);
  const retrievedAt = nowIso(ctx);
  if (file.bytes.length === 0) throw appError("empty_file");

  const detected = detectKind(file.bytes, file.contentType, file.name);
  if (detected.kind === "image") {
    return imageResult(
      file.bytes,
      detected.mediaType,
      file.name,
      file.sourceUrl,
      `Image file "${file.name}"`,
      retrievedAt,
    );
  }

  const content = await extractPassages(
    { bytes: file.bytes, contentType: file.contentType, name: file.name },
    passageRequest(ctx),
    extractLimitsFrom(ctx.limits),
    ctx.signal,
  );
  const title = content.title || file.name;
  const header = [`File: ${file.name}`, `Type: ${content.kind}`, ...content.notes.map((n) => `Note: ${n}`)];
  return passagesResult({ url: file.sourceUrl, title, content, label: `file ${file.name}`, header }, retrievedAt);
}

export const fileAnalysisTool = {
  name: "file-analysis",
  description:
    "Read a file (PDF, DOCX, XLSX, CSV, JSON, Markdown, text, or an image) from an http(s) URL or " +
    "an uploaded file id, and return the passages most relevant to the task.",
  inputSchema,
  isConfigured: () => ({ ok: true }),
  execute,
} satisfies CellTool<FileAnalysisInput>;
