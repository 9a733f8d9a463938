import { getDocumentProxy } from "unpdf";
import { appError, isAppError } from "../errors.ts";
import { trimLineEnds } from "../text.ts";

// PDF → text, page by page, stopping at the page limit (in an extraction worker, which the caller
// terminates on timeout). pdf.js throws PasswordException for encrypted files and
// InvalidPDFException for damaged ones; both become corrupt_file.

export interface PdfText {
  text: string;
  title?: string;
  pages: number;
  pagesRead: number;
}

export async function pdfToText(bytes: Buffer, maxPages: number): Promise<PdfText> {
  let doc: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
  try {
    // pdf.js may detach the buffer it is given; hand it a copy.
    doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    const pagesRead = Math.min(doc.numPages, maxPages);
    const pages: string[] = [];
    for (let n = 1; n <= pagesRead; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      pages.push(
        trimLineEnds(
          content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join(""),
        ).trim(),
      );
    }
    const info = (await doc.getMetadata().catch(() => null))?.info as { Title?: unknown } | undefined;
    const title = typeof info?.Title === "string" && info.Title.trim() ? info.Title.trim() : undefined;
    return { text: pages.filter(Boolean).join("\n\n"), title, pages: doc.numPages, pagesRead };
  } catch (e) {
    if (isAppError(e)) throw e;
    const name = (e as { name?: string } | null)?.name;
    if (name === "PasswordException") throw appError("corrupt_file", "The PDF is encrypted.");
    throw appError("corrupt_file", "The PDF is damaged or not a PDF.");
  } finally {
    await doc?.loadingTask.destroy().catch(() => undefined);
  }
}
