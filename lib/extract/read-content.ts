import { appError } from "../errors.ts";
import { docxToMarkdown } from "./docx.ts";
import { htmlToMarkdown } from "./html.ts";
import { pdfToText } from "./pdf.ts";
import { decodeText } from "./text.ts";
import { xlsxToText } from "./xlsx.ts";
import { assertZipWithinLimits } from "./zip.ts";
import type { ContentKind, ExtractInput, ExtractLimits, ExtractedContent } from "./types.ts";

// The parsers themselves. This runs inside an extraction worker thread (extract-worker.ts):
// linkedom, Readability, turndown, pdf.js and exceljs do long synchronous work that no timeout
// on the main thread could interrupt.

export async function readContent(
  input: ExtractInput,
  kind: Exclude<ContentKind, "image">,
  limits: ExtractLimits,
): Promise<ExtractedContent> {
  switch (kind) {
    case "html": {
      const html = htmlToMarkdown(decodeText(input.bytes, input.charset, true), input.url);
      return { kind, title: html.title, text: html.markdown, notes: [] };
    }
    case "pdf": {
      const pdf = await pdfToText(input.bytes, limits.maxPdfPages);
      const notes =
        pdf.pagesRead < pdf.pages ? [`only the first ${pdf.pagesRead} of ${pdf.pages} pages were read`] : [];
      if (!pdf.text.trim())
        throw appError("empty_file", "The PDF has no extractable text (it may be a scanned image).");
      return { kind, title: pdf.title, text: pdf.text, notes };
    }
    case "docx":
      await assertZipWithinLimits(input.bytes, limits.maxUnzippedBytes.docx);
      return { kind, text: await docxToMarkdown(input.bytes), notes: [] };
    case "xlsx": {
      await assertZipWithinLimits(input.bytes, limits.maxUnzippedBytes.xlsx);
      const sheets = await xlsxToText(input.bytes, limits.maxSheetRows, limits.maxUnzippedBytes.xlsx);
      const notes = sheets.cutSheets.map((s) => `sheet "${s}" was cut at ${limits.maxSheetRows} rows`);
      return { kind, text: sheets.text, notes };
    }
    default:
      return { kind, text: decodeText(input.bytes, input.charset), notes: [] };
  }
}
