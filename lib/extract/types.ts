// Shapes shared by the extractors. Extraction turns bytes of a known kind into text the model
// can read; budgeting that text (truncation, passage selection) is a separate step.

export type ContentKind = "html" | "pdf" | "docx" | "xlsx" | "csv" | "markdown" | "json" | "text" | "image";

export interface ExtractInput {
  bytes: Buffer;
  /** Media type as served or stored (parameters allowed); may be empty or generic. */
  contentType: string;
  /** File name or URL path, used when the media type is missing or generic. */
  name?: string;
  /** The page URL, to resolve relative links in HTML. */
  url?: string;
  charset?: string;
}

export interface ExtractLimits {
  maxPdfPages: number;
  /** Rows read per spreadsheet sheet. */
  maxSheetRows: number;
  timeoutMs: number;
  /**
   * Total uncompressed size allowed inside a container, by the declared sizes. A DOCX is parsed
   * whole, a workbook as a stream; a container that lies about its sizes meets the worker's heap
   * limit instead.
   */
  maxUnzippedBytes: { docx: number; xlsx: number };
}

export interface ExtractedContent {
  kind: Exclude<ContentKind, "image">;
  title?: string;
  /** Markdown for HTML and DOCX, CSV-like text for spreadsheets, the text itself otherwise. */
  text: string;
  /** Things the reader should know, e.g. "only the first 50 of 120 pages were read". */
  notes: string[];
}

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = {
  maxPdfPages: 200,
  maxSheetRows: 2_000,
  timeoutMs: 20_000,
  maxUnzippedBytes: { docx: 64 * 1024 * 1024, xlsx: 256 * 1024 * 1024 },
};
