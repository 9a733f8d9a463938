// The tool layer for AI columns: the contract, the four tools, and their ports.
export * from "./types.ts";
export { CELL_TOOLS, getTool, isToolName } from "./registry.ts";
export { TOOL_NAMES } from "../domain/column-model.ts";
export { fenceUntrusted } from "./fence.ts";
export { toolLimitsFromConfig, extractLimitsFrom } from "./limits.ts";
export { webSearchTool, searchPage, type WebSearchInput } from "./web-search.ts";
export { scrapeUrlTool, type ScrapeUrlInput } from "./scrape-url.ts";
export { fileAnalysisTool, parseFileReference, type FileAnalysisInput, type FileReference } from "./file-analysis.ts";
export {
  emailEnrichmentTool,
  PATTERN_CONFIDENCE,
  type EmailEnrichmentInput,
  type EmailEnrichmentOutput,
  type EmailStatus,
} from "./email-enrichment.ts";
export { MemorySearchCache, searchCacheKey, normalizeQuery } from "./search/cache.ts";
export { systemDnsResolver, createSystemDnsResolver } from "./email/dns.ts";
export { callProvider, retryAfterMs } from "./provider-http.ts";
