import { z } from "zod";
import { appError } from "../errors.ts";
import { detectKind, extractPassages } from "../extract/index.ts";
import { safeFetch } from "../net/index.ts";
import { imageResult, nowIso, passageRequest, passagesResult } from "./documents.ts";
import { extractLimitsFrom } from "./limits.ts";
import type { CellTool, ToolContext, ToolResult } from "./types.ts";

// scrape-url: fetch one page through the guard, extract its main content, and hand the model
// the parts most relevant to the column's instructions. The source is the page title and the
// URL after redirects.

const inputSchema = z.object({
  url: z.string().trim().min(1).max(2_048).describe("The http(s) URL of the page to read."),
});
export type ScrapeUrlInput = z.infer<typeof inputSchema>;

const BINARY_KINDS = new Set(["pdf", "docx", "xlsx", "image"]);

async function execute(input: ScrapeUrlInput, ctx: ToolContext): Promise<ToolResult> {
  const { limits } = ctx;
  const res = await safeFetch(input.url, {
    maxBytes: limits.maxBytes,
    timeoutMs: limits.timeoutMs,
    connectTimeoutMs: limits.connectTimeoutMs,
    allowedPrivateHosts: limits.allowedPrivateHosts,
    allowedTargets: limits.allowedTargets,
    lookup: ctx.lookup,
    signal: ctx.signal,
    // The start of an oversized page is still useful; an oversized PDF is not (checked below).
    truncate: true,
    headers: { accept: "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.8" },
  });
  if (res.status >= 400) {
    throw appError("fetch_failed", `The page answered HTTP ${res.status}.`, { url: res.finalUrl, status: res.status });
  }
  const retrievedAt = nowIso(ctx);
  const detected = detectKind(res.body, res.contentType, new URL(res.finalUrl).pathname);
  if (res.truncated && BINARY_KINDS.has(detected.kind)) {
    throw appError("file_too_large", `The file at this URL is larger than ${limits.maxBytes} bytes.`);
  }
  if (detected.kind === "image") {
    return imageResult(
      res.body,
      detected.mediaType,
      res.finalUrl,
      res.finalUrl,
      `Image retrieved from ${res.finalUrl}`,
      retrievedAt,
    );
  }

  const content = await extractPassages(
    { bytes: res.body, contentType: res.contentType, charset: res.charset, url: res.finalUrl },
    passageRequest(ctx),
    extractLimitsFrom(limits),
    ctx.signal,
  );
  const title = content.title || res.finalUrl;
  const notes = [...content.notes];
  if (res.truncated) notes.push(`the page is larger than ${limits.maxBytes} bytes; only its beginning was read`);
  const header = [`Title: ${title}`, `URL: ${res.finalUrl}`, ...notes.map((n) => `Note: ${n}`)];
  return passagesResult({ url: res.finalUrl, title, content, label: `page ${res.finalUrl}`, header }, retrievedAt);
}

export const scrapeUrlTool = {
  name: "scrape-url",
  description:
    "Read a web page (or a PDF, DOCX, XLSX, CSV, JSON or text file) at an http(s) URL and return its " +
    "main content as Markdown, shortened to the passages most relevant to the task.",
  inputSchema,
  isConfigured: () => ({ ok: true }),
  execute,
} satisfies CellTool<ScrapeUrlInput>;
