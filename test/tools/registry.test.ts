import { describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config.ts";
import { AppError } from "../../lib/errors.ts";
import {
  CELL_TOOLS,
  TOOL_NAMES,
  getTool,
  isToolName,
  retryAfterMs,
  toolLimitsFromConfig,
} from "../../lib/tools/index.ts";

describe("tool registry", () => {
  it("registers the four tools under their own names", () => {
    expect(TOOL_NAMES).toEqual(["web-search", "scrape-url", "file-analysis", "email-enrichment"]);
    expect(Object.keys(CELL_TOOLS)).toHaveLength(4);
    for (const [key, tool] of Object.entries(CELL_TOOLS)) {
      expect(tool.name).toBe(key);
      expect(tool.description.length).toBeGreaterThan(20);
      expect(getTool(key)).toBe(tool);
    }
  });

  it("rejects unknown tool names", () => {
    expect(isToolName("web-search")).toBe(true);
    expect(isToolName("toString")).toBe(false);
    expect(() => getTool("shell")).toThrow(AppError);
    try {
      getTool("shell");
    } catch (e) {
      expect((e as AppError).code).toBe("unknown_tool");
    }
  });

  it("validates model arguments with each input schema", () => {
    expect(getTool("scrape-url").inputSchema.safeParse({ url: "https://a.example" }).success).toBe(true);
    expect(getTool("scrape-url").inputSchema.safeParse({}).success).toBe(false);
    expect(getTool("web-search").inputSchema.safeParse({ query: "  " }).success).toBe(false);
    expect(getTool("file-analysis").inputSchema.safeParse({ url: "file_x" }).success).toBe(true);
  });

  it("reports which tools are usable under a configuration", () => {
    const bare = loadConfig({});
    expect(Object.fromEntries(TOOL_NAMES.map((n) => [n, getTool(n).isConfigured(bare).ok]))).toEqual({
      "web-search": false,
      "scrape-url": true,
      "file-analysis": true,
      "email-enrichment": true,
    });
  });

  it("derives default limits from the configuration", () => {
    const limits = toolLimitsFromConfig(
      loadConfig({
        FETCH_MAX_BYTES: "1000",
        FETCH_TIMEOUT_MS: "2000",
        FILE_MAX_PAGES: "7",
        ALLOWED_PRIVATE_HOSTS: "127.0.0.1,::1",
      }),
    );
    expect(limits).toMatchObject({
      maxBytes: 1000,
      timeoutMs: 2000,
      maxPdfPages: 7,
      allowedPrivateHosts: ["127.0.0.1", "::1"],
    });
    expect(toolLimitsFromConfig(loadConfig({})).allowedPrivateHosts).toEqual([]);
  });

  it("parses Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2024-05-01T00:00:00Z");
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs("Wed, 01 May 2024 00:00:10 GMT", now)).toBe(10_000);
    expect(retryAfterMs("garbage", now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
