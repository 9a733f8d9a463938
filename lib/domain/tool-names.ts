// The tools an AI column (or a waterfall's step) may use; a module of its own so that the column
// schemas can name them without importing the column model.
export const TOOL_NAMES = ["web-search", "scrape-url", "file-analysis", "email-enrichment"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];
