import { selectRelevant } from "./relevance.ts";
import type { ExtractedContent } from "./types.ts";

// What a tool hands a model from a long document: the passages most relevant to the column's
// instructions, and the excerpt a cell keeps of its source. Built in the extraction worker
// (extract-worker.ts), next to the parser, so that splitting, scoring and ranking a page of
// megabytes never runs on the request thread, and only these few kilobytes cross back to it.

export interface PassageRequest {
  /** The text the passages are ranked against: the column's instructions. */
  query: string;
  maxTokens: number;
}

export interface PassagesOfContent extends Omit<ExtractedContent, "text"> {
  /** The whole text when it fits maxTokens, else the best passages in document order, marked as cut. */
  passages: string;
  truncated: boolean;
  /** The start of the whole text, on one line. */
  excerpt: string;
}

export function passagesOf(content: ExtractedContent, request: PassageRequest): PassagesOfContent {
  const { text, ...rest } = content;
  const selected = selectRelevant(text, request.query, request.maxTokens);
  return { ...rest, passages: selected.text, truncated: selected.truncated, excerpt: excerptOf(text) };
}

/** The first ~maxChars of text on one line, cut at a word boundary. */
export function excerptOf(text: string, maxChars = 300): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= maxChars) return flat;
  const cut = flat.slice(0, maxChars);
  const space = cut.lastIndexOf(" ");
  return `${(space > maxChars * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
