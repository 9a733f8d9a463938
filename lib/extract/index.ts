// Content extraction: bytes → readable text, and budgeting that text for a model. The parsers
// (html.ts, pdf.ts, docx.ts, xlsx.ts) run in the extraction worker threads only; exported from
// here, they sat in every idle server's heap.
export { extractContent, extractPassages, inspectStoredFile } from "./extract.ts";
export { excerptOf, type PassageRequest, type PassagesOfContent } from "./passages.ts";
export { closeExtractPool } from "./extract-pool.ts";
export { detectKind, type Detected } from "./detect.ts";
export { decodeText } from "./text.ts";
export { truncateToTokens, estimateTokens, CHARS_PER_TOKEN, type Budgeted } from "./budget.ts";
export {
  chunkText,
  rankPassages,
  selectRelevant,
  tokenize,
  type Passage,
  type ScoredPassage,
  type Selection,
} from "./relevance.ts";
export {
  DEFAULT_EXTRACT_LIMITS,
  type ContentKind,
  type ExtractInput,
  type ExtractLimits,
  type ExtractedContent,
} from "./types.ts";
