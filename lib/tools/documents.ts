import type { ToolContext, ToolDocument } from "./types.ts";

// Small helpers for building the sources a tool returns.

export const nowIso = (ctx: Pick<ToolContext, "now">): string => (ctx.now?.() ?? new Date()).toISOString();

/** The first ~maxChars of text on one line, cut at a word boundary. */
export function excerptOf(text: string, maxChars = 300): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= maxChars) return flat;
  const cut = flat.slice(0, maxChars);
  const space = cut.lastIndexOf(" ");
  return `${(space > maxChars * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function toolDocument(url: string, title: string, text: string, retrievedAt: string): ToolDocument {
  return { url, title: title.replace(/\s+/g, " ").trim() || url, excerpt: excerptOf(text), retrievedAt };
}
