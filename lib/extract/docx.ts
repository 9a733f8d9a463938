import mammoth from "mammoth";
import TurndownService from "turndown";
import { appError } from "../errors.ts";

// DOCX → Markdown through mammoth's HTML, which keeps headings, lists and tables.

const turndown = new TurndownService({ headingStyle: "atx", bulletListMarker: "-" });
turndown.addRule("images", { filter: "img", replacement: () => "" });

export async function docxToMarkdown(bytes: Buffer): Promise<string> {
  let html: string;
  try {
    // Embedded images would come back as data: URIs; we drop them, so skip converting them.
    const result = await mammoth.convertToHtml(
      { buffer: bytes },
      { convertImage: mammoth.images.imgElement(async () => ({ src: "" })), externalFileAccess: false },
    );
    html = result.value;
  } catch {
    throw appError("corrupt_file", "The Word document is damaged.");
  }
  return turndown
    .turndown(html)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
