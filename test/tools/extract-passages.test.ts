import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors.ts";
import {
  DEFAULT_EXTRACT_LIMITS,
  excerptOf,
  extractContent,
  extractPassages,
  selectRelevant,
} from "../../lib/extract/index.ts";
import { ARTICLE_FACT, ARTICLE_TITLE, articleHtml } from "../support/page-server.ts";
import { LARGE_PAGE_FACT, LARGE_PAGE_QUESTION, largePage } from "../hardening/hostile-files.ts";
import { buildPdf } from "./fixtures.ts";

// extractPassages ranks the passages in the extraction worker: what comes back must be exactly
// what ranking the whole text on this thread gave, without the whole text.

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
  throw new Error("expected a rejection");
}

/** What the tools built from the whole text before: the selection, and the excerpt a cell keeps. */
async function onThisThread(bytes: Buffer, contentType: string, query: string, maxTokens: number) {
  const { text, ...rest } = await extractContent({ bytes, contentType });
  const selected = selectRelevant(text, query, maxTokens);
  return { ...rest, passages: selected.text, truncated: selected.truncated, excerpt: excerptOf(text) };
}

describe("extractPassages", () => {
  it("returns a short page whole, with its title and excerpt", async () => {
    const bytes = Buffer.from(articleHtml());
    const request = { query: "What share of new homes in Norway have heat pumps?", maxTokens: 8_000 };
    const out = await extractPassages({ bytes, contentType: "text/html" }, request);
    expect(out).toEqual(await onThisThread(bytes, "text/html", request.query, request.maxTokens));
    expect(out.truncated).toBe(false);
    expect(out.title).toContain(ARTICLE_TITLE);
    expect(out.passages).toContain(ARTICLE_FACT);
    expect(out.excerpt.length).toBeLessThanOrEqual(301);
    expect(out).not.toHaveProperty("text");
  });

  it("ranks a page of megabytes in the worker and sends back only the chosen passages", {
    timeout: 120_000,
  }, async () => {
    const bytes = Buffer.from(largePage(8_000, 1));
    const limits = { ...DEFAULT_EXTRACT_LIMITS, timeoutMs: 100_000 };
    const out = await extractPassages(
      { bytes, contentType: "text/html" },
      { query: LARGE_PAGE_QUESTION, maxTokens: 2_000 },
      limits,
    );
    expect(out.truncated).toBe(true);
    expect(out.passages).toContain(LARGE_PAGE_FACT);
    expect(out.passages).toMatch(/\[truncated: showing \d+ of \d+ passages, chosen for relevance/);
    expect(out.passages.length).toBeLessThanOrEqual(2_000 * 4);
    expect(JSON.stringify(out).length).toBeLessThan(10_000);
    const { text } = await extractContent({ bytes, contentType: "text/html" }, limits);
    expect(out.passages).toBe(selectRelevant(text, LARGE_PAGE_QUESTION, 2_000).text);
    expect(out.excerpt).toBe(excerptOf(text));
  });

  it("keeps a document's notes, and the errors of extraction", async () => {
    const pdf = buildPdf(["Page one.", "Page two.", "Page three."], { title: "Report" });
    const out = await extractPassages(
      { bytes: pdf, contentType: "application/pdf" },
      { query: "pages", maxTokens: 100 },
      { ...DEFAULT_EXTRACT_LIMITS, maxPdfPages: 2 },
    );
    expect(out).toMatchObject({ kind: "pdf", title: "Report", notes: ["only the first 2 of 3 pages were read"] });
    expect(
      await codeOf(
        extractPassages({ bytes: Buffer.from(" \n "), contentType: "text/plain" }, { query: "x", maxTokens: 100 }),
      ),
    ).toBe("empty_file");
    const jpeg = Buffer.from("ffd8ffe000104a464946", "hex");
    expect(
      await codeOf(extractPassages({ bytes: jpeg, contentType: "image/jpeg" }, { query: "x", maxTokens: 100 })),
    ).toBe("unsupported_file");
  });
});
