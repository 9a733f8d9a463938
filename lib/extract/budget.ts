// A token budget without a tokenizer: about four characters per token holds well enough for
// English prose and errs on the generous side for code and tables.

export const CHARS_PER_TOKEN = 4;

export const estimateTokens = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN);

export interface Budgeted {
  text: string;
  truncated: boolean;
}

/** Cuts text to the budget at a line or word boundary and says so visibly at the end. */
export function truncateToTokens(text: string, maxTokens: number): Budgeted {
  const maxChars = Math.max(0, maxTokens * CHARS_PER_TOKEN);
  if (text.length <= maxChars) return { text, truncated: false };
  let cut = text.slice(0, maxChars);
  const boundary = Math.max(cut.lastIndexOf("\n"), cut.lastIndexOf(" "));
  // Only back off to a boundary when it costs little; a single huge line still gets cut.
  if (boundary > maxChars * 0.8) cut = cut.slice(0, boundary);
  const note = `[truncated: showing about ${estimateTokens(cut)} of ${estimateTokens(text)} tokens]`;
  return { text: `${cut.trimEnd()}\n\n${note}`, truncated: true };
}
