import { z } from "zod";
import type { Config } from "../config.ts";
import { appError } from "../errors.ts";
import { nowIso } from "./documents.ts";
import { fenceUntrusted } from "./fence.ts";
import { searchCacheKey } from "./search/cache.ts";
import { SEARCH_ADAPTERS, type SearchProviderName } from "./search/providers.ts";
import type { CellTool, ConfiguredCheck, SearchHit, ToolContext, ToolResult } from "./types.ts";

// web-search: one query to the configured provider, at most SEARCH_MAX_RESULTS hits, cached.
// The tool reads page 1; searchPage serves callers that walk further pages (SearXNG and Brave
// have pages, Tavily, Exa and OpenAI answer [] past page 1).
// SEARCH_PROVIDER=openai uses OpenAI's hosted search (a search model over Chat Completions).

const inputSchema = z.object({
  query: z.string().trim().min(1).max(400).describe("The search query, as you would type it into a search engine."),
});
export type WebSearchInput = z.infer<typeof inputSchema>;

const SETUP_HINT =
  "Set SEARCH_PROVIDER (searxng, brave, tavily, exa or openai), plus SEARCH_BASE_URL for SearXNG " +
  "or SEARCH_API_KEY for Brave, Tavily and Exa.";

function isConfigured(config: Config): ConfiguredCheck {
  const { provider, baseUrl, apiKey } = config.search;
  if (!provider) return { ok: false, message: `Web search is not configured. ${SETUP_HINT}` };
  if (provider === "openai") {
    return config.ai.openaiApiKey
      ? { ok: true }
      : { ok: false, message: "SEARCH_PROVIDER=openai uses OpenAI's hosted web search and needs OPENAI_API_KEY." };
  }
  if (provider === "searxng" && !baseUrl) {
    return { ok: false, message: "SEARCH_PROVIDER=searxng needs SEARCH_BASE_URL (your SearXNG instance)." };
  }
  if (provider !== "searxng" && !apiKey) {
    return { ok: false, message: `SEARCH_PROVIDER=${provider} needs SEARCH_API_KEY.` };
  }
  return { ok: true };
}

/** One page (1-based) of hits for a query, with the tool's configuration check, cache and limits. */
export async function searchPage(query: string, page: number, ctx: ToolContext): Promise<SearchHit[]> {
  if (!Number.isInteger(page) || page < 1) {
    throw appError("validation_failed", `A search page is a whole number from 1, not ${page}.`);
  }
  const { config } = ctx;
  const check = isConfigured(config);
  if (!check.ok) throw appError("tool_not_configured", check.message);
  const provider = config.search.provider as SearchProviderName;
  const count = config.search.maxResults;
  const key = searchCacheKey(ctx.workspaceId ?? "-", provider, query, count, page);
  const cached = await ctx.cache?.get(key);
  if (cached) return cached;

  const retrievedAt = nowIso(ctx);
  const raw = await SEARCH_ADAPTERS[provider]({ query, count, page, config, ctx });
  const hits = raw
    .filter((h) => /^https?:\/\//i.test(h.url))
    .slice(0, count)
    .map((h) => ({ ...h, retrievedAt }));
  // Empty answers are not cached: they are often transient (index lag, provider hiccup).
  if (hits.length > 0) await ctx.cache?.set(key, hits, config.search.cacheTtlSeconds);
  return hits;
}

async function execute(input: WebSearchInput, ctx: ToolContext): Promise<ToolResult> {
  const hits = await searchPage(input.query, 1, ctx);
  const documents = hits.map((h) => ({
    url: h.url,
    title: h.title,
    excerpt: h.snippet,
    retrievedAt: h.retrievedAt,
  }));
  const listing = hits.length
    ? hits
        .map(
          (h, i) =>
            `${i + 1}. ${h.title}\n   URL: ${h.url}${h.publishedAt ? `\n   Published: ${h.publishedAt}` : ""}\n   ${h.snippet}`,
        )
        .join("\n\n")
    : "No results.";
  return { documents, output: fenceUntrusted(`web search results for: ${input.query}`, listing) };
}

export const webSearchTool = {
  name: "web-search",
  description:
    "Search the web. Returns up to a few results with title, URL and snippet. Use scrape-url on a " +
    "result's URL when the snippet is not enough.",
  inputSchema,
  isConfigured,
  execute,
} satisfies CellTool<WebSearchInput>;
