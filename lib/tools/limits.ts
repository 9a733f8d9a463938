import type { Config } from "../config.ts";
import { DEFAULT_EXTRACT_LIMITS, type ExtractLimits } from "../extract/index.ts";
import type { ToolLimits } from "./types.ts";

// Default per-call limits from the configuration; the engine may tighten them per column.

export function toolLimitsFromConfig(config: Config): ToolLimits {
  return {
    maxBytes: config.fetch.maxBytes,
    maxFileBytes: config.files.maxBytes,
    timeoutMs: config.fetch.timeoutMs,
    connectTimeoutMs: config.fetch.connectTimeoutMs,
    maxTokens: config.fetch.maxTokens,
    maxPdfPages: config.files.maxPages,
    extractTimeoutMs: config.files.extractTimeoutMs,
    allowedPrivateHosts: config.fetch.allowedPrivateHosts,
    retry: { attempts: 3, baseMs: 500, maxWaitMs: 10_000 },
  };
}

export function extractLimitsFrom(limits: ToolLimits): ExtractLimits {
  return {
    maxPdfPages: limits.maxPdfPages,
    maxSheetRows: 2_000,
    timeoutMs: limits.extractTimeoutMs,
    maxUnzippedBytes: DEFAULT_EXTRACT_LIMITS.maxUnzippedBytes,
  };
}
