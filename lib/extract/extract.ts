import { appError } from "../errors.ts";
import { detectKind } from "./detect.ts";
import { docxToMarkdown } from "./docx.ts";
import { htmlToMarkdown } from "./html.ts";
import { pdfToText } from "./pdf.ts";
import { decodeText } from "./text.ts";
import { xlsxToText } from "./xlsx.ts";
import { assertZipWithinLimits, listZipEntries } from "./zip.ts";
import { DEFAULT_EXTRACT_LIMITS, type ExtractInput, type ExtractLimits, type ExtractedContent } from "./types.ts";

// Bytes of any supported kind → readable text. Throws empty_file, unsupported_file (images
// included: the caller hands those to a vision model instead), corrupt_file or timeout.

export async function extractContent(
  input: ExtractInput,
  limits: ExtractLimits = DEFAULT_EXTRACT_LIMITS,
  signal?: AbortSignal,
): Promise<ExtractedContent> {
  if (input.bytes.length === 0) throw appError("empty_file");
  const { kind } = detectKind(input.bytes, input.contentType, input.name ?? input.url ?? "");
  if (kind === "image") throw appError("unsupported_file", "Images cannot be read as text.");

  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const combined = signal ? AbortSignal.any([deadline, signal]) : deadline;
  const work = (async (): Promise<ExtractedContent> => {
    switch (kind) {
      case "html": {
        const html = htmlToMarkdown(decodeText(input.bytes, input.charset, true), input.url);
        return { kind, title: html.title, text: html.markdown, notes: [] };
      }
      case "pdf": {
        const pdf = await pdfToText(input.bytes, limits.maxPdfPages, combined);
        const notes =
          pdf.pagesRead < pdf.pages ? [`only the first ${pdf.pagesRead} of ${pdf.pages} pages were read`] : [];
        if (!pdf.text.trim()) {
          throw appError("empty_file", "The PDF has no extractable text (it may be a scanned image).");
        }
        return { kind, title: pdf.title, text: pdf.text, notes };
      }
      case "docx":
        assertZipWithinLimits(listZipEntries(input.bytes), limits.maxUnzippedBytes);
        return { kind, text: await docxToMarkdown(input.bytes), notes: [] };
      case "xlsx": {
        assertZipWithinLimits(listZipEntries(input.bytes), limits.maxUnzippedBytes);
        const sheets = await xlsxToText(input.bytes, limits.maxSheetRows);
        const notes = sheets.cutSheets.map((s) => `sheet "${s}" was cut at ${limits.maxSheetRows} rows`);
        return { kind, text: sheets.text, notes };
      }
      default:
        return { kind, text: decodeText(input.bytes, input.charset), notes: [] };
    }
  })();

  const result = await raceAbort(work, combined, () =>
    signal?.aborted ? signal.reason : appError("timeout", `Reading the file took longer than ${limits.timeoutMs} ms.`),
  );
  if (!result.text.trim()) throw appError("empty_file");
  return result;
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal, reason: () => unknown): Promise<T> {
  if (signal.aborted) return Promise.reject(reason());
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(reason());
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, (e) => reject(signal.aborted ? reason() : e)).finally(() =>
      signal.removeEventListener("abort", onAbort),
    );
  });
}
