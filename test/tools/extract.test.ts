import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors.ts";
import {
  DEFAULT_EXTRACT_LIMITS,
  chunkText,
  detectKind,
  estimateTokens,
  extractContent,
  rankPassages,
  selectRelevant,
  truncateToTokens,
} from "../../lib/extract/index.ts";
import { htmlToMarkdown } from "../../lib/extract/html.ts";
import { ARTICLE_FACT, ARTICLE_TITLE, BOILERPLATE, articleHtml } from "../support/page-server.ts";
import { buildDocx, buildLongXlsx, buildPdf, buildXlsx, buildZip } from "./fixtures.ts";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
  throw new Error("expected a rejection");
}

describe("HTML extraction", () => {
  it("keeps the article as Markdown and drops navigation, sidebar, footer and scripts", () => {
    const { title, markdown, usedReadability } = htmlToMarkdown(articleHtml(), "https://news.example/energy/heat");
    expect(usedReadability).toBe(true);
    expect(title).toContain(ARTICLE_TITLE);
    expect(markdown).toContain(ARTICLE_FACT);
    expect(markdown).toMatch(/^## Costs are falling$/m);
    expect(markdown).toMatch(/^-\s+Air-source units suit most climates\.$/m);
    // Relative links are made absolute against the page URL.
    expect(markdown).toContain("[full report](https://news.example/reports/2024.pdf)");
    for (const junk of [...BOILERPLATE, "window.analytics", "font-family"]) expect(markdown).not.toContain(junk);
  });

  it("falls back to the body text, minus page furniture, when Readability finds no article", () => {
    const html = `<html><head><title>Tiny</title></head><body><nav>Menu Home About</nav>
      <div><p>Opening hours: 9 to 5.</p></div><footer>Footer links</footer></body></html>`;
    const { title, markdown, usedReadability } = htmlToMarkdown(html);
    expect(usedReadability).toBe(false);
    expect(title).toBe("Tiny");
    expect(markdown).toContain("Opening hours: 9 to 5.");
    expect(markdown).not.toContain("Menu Home");
    expect(markdown).not.toContain("Footer links");
  });

  it("decodes the declared or meta charset", async () => {
    const latin = Buffer.from(
      "<html><head><meta charset=iso-8859-1><title>Caf\xe9</title></head><body><p>cr\xe8me br\xfbl\xe9e</p></body></html>",
      "latin1",
    );
    const out = await extractContent({ bytes: latin, contentType: "text/html" });
    expect(out.title).toBe("Café");
    expect(out.text).toContain("crème brûlée");
  });
});

describe("file extraction", () => {
  it("reads PDF text page by page with the document title", async () => {
    const pdf = buildPdf(["Turbines generate power.", "Solar covers the rest."], { title: "Energy Mix" });
    const out = await extractContent({ bytes: pdf, contentType: "application/pdf" });
    expect(out).toMatchObject({ kind: "pdf", title: "Energy Mix", notes: [] });
    expect(out.text).toBe("Turbines generate power.\n\nSolar covers the rest.");
  });

  it("stops at the page limit and says so", async () => {
    const pdf = buildPdf(["one", "two", "three"]);
    const out = await extractContent(
      { bytes: pdf, contentType: "application/pdf" },
      { ...DEFAULT_EXTRACT_LIMITS, maxPdfPages: 2 },
    );
    expect(out.text).not.toContain("three");
    expect(out.notes).toEqual(["only the first 2 of 3 pages were read"]);
  });

  it("rejects encrypted, damaged and mislabelled PDFs as corrupt_file", async () => {
    const encrypted = buildPdf(["secret"], { encryptWithPassword: "hunter2" });
    expect(await codeOf(extractContent({ bytes: encrypted, contentType: "application/pdf" }))).toBe("corrupt_file");
    const damaged = Buffer.from("%PDF-1.4\nthis is not really a pdf\n%%EOF");
    expect(await codeOf(extractContent({ bytes: damaged, contentType: "application/pdf" }))).toBe("corrupt_file");
    const fake = Buffer.from("<html>not a pdf</html>");
    expect(await codeOf(extractContent({ bytes: fake, contentType: "application/pdf" }))).toBe("corrupt_file");
  });

  it("enforces the extraction time limit", async () => {
    const pdf = buildPdf(Array.from({ length: 30 }, (_, i) => `page ${i}`));
    const limits = { ...DEFAULT_EXTRACT_LIMITS, timeoutMs: 1 };
    expect(await codeOf(extractContent({ bytes: pdf, contentType: "application/pdf" }, limits))).toBe("timeout");
  });

  it("reads DOCX as Markdown, detected by content even without a type", async () => {
    const docx = buildDocx("Quarterly report", ["Revenue grew 12% & margins held.", "Headcount: 250."]);
    const out = await extractContent({ bytes: docx, contentType: "application/octet-stream" });
    expect(out.kind).toBe("docx");
    expect(out.text).toBe("# Quarterly report\n\nRevenue grew 12% & margins held.\n\nHeadcount: 250.");
  });

  it("rejects damaged, encrypted (OLE) and bomb-sized DOCX files", async () => {
    const docx = buildDocx("T", ["x"]);
    const truncated = docx.subarray(0, docx.length - 30);
    expect(await codeOf(extractContent({ bytes: truncated, contentType: DOCX }))).toBe("corrupt_file");
    const ole = Buffer.concat([Buffer.from("d0cf11e0a1b11ae1", "hex"), Buffer.alloc(512)]);
    expect(await codeOf(extractContent({ bytes: ole, contentType: DOCX, name: "x.docx" }))).toBe("corrupt_file");
    const bomb = buildDocx("T", ["x"], { "word/media/pad.bin": Buffer.alloc(2 * 1024 * 1024) });
    const limits = { ...DEFAULT_EXTRACT_LIMITS, maxUnzippedBytes: { docx: 1024 * 1024, xlsx: 1024 * 1024 } };
    expect(await codeOf(extractContent({ bytes: bomb, contentType: DOCX }, limits))).toBe("file_too_large");
  });

  it("reads XLSX as CSV-like text per sheet with computed values", async () => {
    const out = await extractContent({ bytes: await buildXlsx(), contentType: "", name: "people.xlsx" });
    expect(out.kind).toBe("xlsx");
    expect(out.text).toBe(
      [
        "## Sheet: People",
        "",
        "Name,Company,Joined",
        'Ada Lovelace,"Analytical, Ltd",2021-05-03',
        "Grace Hopper,Navy,2019-01-15",
        "",
        "## Sheet: Totals",
        "",
        "Units,40",
        "More,2",
        "Sum,42",
      ].join("\n"),
    );
  });

  it("cuts long sheets at the row limit and says so", async () => {
    const limits = { ...DEFAULT_EXTRACT_LIMITS, maxSheetRows: 10 };
    const out = await extractContent({ bytes: await buildLongXlsx(25), contentType: "" }, limits);
    expect(out.text).toContain("row 10,10");
    expect(out.text).not.toContain("row 11,");
    expect(out.notes).toEqual(['sheet "Big" was cut at 10 rows']);
  });

  it.each([
    ["text/csv", "a,b\n1,2\n", "csv"],
    ["application/json", '{"a":1}', "json"],
    ["text/markdown", "# Title\n\nBody", "markdown"],
    ["text/plain", "just text", "text"],
    ["", "no type but plainly text", "text"],
  ])("passes %s through as is", async (type, body, kind) => {
    const out = await extractContent({ bytes: Buffer.from(body), contentType: type });
    expect(out).toEqual({ kind, text: body, notes: [] });
  });

  it("uses the file extension when the type is generic", () => {
    expect(detectKind(Buffer.from("a,b"), "application/octet-stream", "data.csv").kind).toBe("csv");
    expect(detectKind(Buffer.from("# hi"), "", "https://x.test/README.md?raw=1").kind).toBe("markdown");
    expect(detectKind(Buffer.from("  <!DOCTYPE html><p>x"), "application/octet-stream").kind).toBe("html");
    expect(detectKind(Buffer.from("<html><p>x"), "text/plain").kind).toBe("text");
    expect(detectKind(Buffer.from("\x89PNG\r\n\x1a\n....", "latin1"), "application/octet-stream")).toEqual({
      kind: "image",
      mediaType: "image/png",
    });
  });

  it("rejects empty, binary, non-office ZIP and image input for text extraction", async () => {
    expect(await codeOf(extractContent({ bytes: Buffer.alloc(0), contentType: "text/plain" }))).toBe("empty_file");
    expect(await codeOf(extractContent({ bytes: Buffer.from("   \n "), contentType: "text/plain" }))).toBe(
      "empty_file",
    );
    const binary = Buffer.from([0, 1, 2, 3, 0, 255, 254, 0]);
    expect(await codeOf(extractContent({ bytes: binary, contentType: "application/octet-stream" }))).toBe(
      "unsupported_file",
    );
    const zip = buildZip({ "readme.txt": "hello" });
    expect(await codeOf(extractContent({ bytes: zip, contentType: "application/zip" }))).toBe("unsupported_file");
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
    expect(await codeOf(extractContent({ bytes: jpeg, contentType: "image/jpeg" }))).toBe("unsupported_file");
  });
});

describe("budgets and relevance", () => {
  it("truncates to a token budget with a visible note", () => {
    const text = "word ".repeat(1_000);
    const out = truncateToTokens(text, 100);
    expect(out.truncated).toBe(true);
    expect(out.text).toMatch(/\[truncated: showing about \d+ of 1250 tokens\]$/);
    expect(estimateTokens(out.text)).toBeLessThanOrEqual(100 + 20);
    expect(truncateToTokens("short", 100)).toEqual({ text: "short", truncated: false });
  });

  it("chunks on paragraphs and ranks the passage that matches the instructions first", () => {
    const filler = (topic: string) => `${topic} ${"lorem ipsum dolor sit amet ".repeat(20)}`;
    const text = [
      filler("Introduction to the company."),
      filler("Office locations and parking."),
      "The company employs 250 engineers across three offices and plans to hire 40 more employees.",
      filler("History of the logo."),
    ].join("\n\n");
    const passages = chunkText(text, 600);
    expect(passages.length).toBe(4);
    const ranked = rankPassages(passages, "How many employees does the company have?");
    expect(ranked[0].text).toContain("250 engineers");
    expect(ranked[ranked.length - 1].score).toBeLessThan(ranked[0].score);
  });

  it("selects the opening and the relevant passages of a long document, in order", () => {
    const para = (s: string) => `${s} ${"padding text about nothing in particular ".repeat(25)}`;
    const sections = [
      para("ACME annual report opening."),
      ...Array.from({ length: 30 }, (_, i) => para(`Section ${i} on logistics.`)),
    ];
    sections.splice(20, 0, "Revenue in 2023 was 4.2 million euros, up from 3.1 million.");
    const out = selectRelevant(sections.join("\n\n"), "What was the revenue in 2023?", 500);
    expect(out.truncated).toBe(true);
    expect(out.text.startsWith("ACME annual report opening.")).toBe(true);
    expect(out.text).toContain("Revenue in 2023 was 4.2 million euros");
    expect(out.text).not.toContain("Section 25 on logistics");
    expect(out.text).toMatch(/\[truncated: showing \d+ of \d+ passages/);
    expect(estimateTokens(out.text)).toBeLessThanOrEqual(500);
  });

  it("returns short documents whole", () => {
    expect(selectRelevant("small doc", "anything", 100)).toEqual({ text: "small doc", truncated: false });
  });
});
