// Content extraction: bytes → readable text, and budgeting that text for a model.
export { extractContent, inspectStoredFile } from "./extract.ts";
export { closeExtractPool } from "./extract-pool.ts";
export { detectKind, type Detected } from "./detect.ts";
export { htmlToMarkdown, type HtmlContent } from "./html.ts";
export { decodeText } from "./text.ts";
export { truncateToTokens, estimateTokens, CHARS_PER_TOKEN, type Budgeted } from "./budget.ts";
export { chunkText, rankPassages, selectRelevant, tokenize, type Passage, type ScoredPassage, type Selection } from "./relevance.ts";
export {
  DEFAULT_EXTRACT_LIMITS,
  type ContentKind,
  type ExtractInput,
  type ExtractLimits,
  type ExtractedContent,
} from "./types.ts";
