import type { Config } from "../../config.ts";
import { appError } from "../../errors.ts";
import { callProvider } from "../provider-http.ts";
import type { SearchHit, ToolContext } from "../types.ts";
import { stripTags, trimChar } from "../../text.ts";

// One adapter per search API, each mapping the provider's documented JSON to SearchHit.
// SEARCH_BASE_URL overrides any provider's origin (self-hosting, proxies, local fakes).

export type SearchProviderName = "searxng" | "brave" | "tavily" | "exa" | "openai";

export interface SearchRequest {
  query: string;
  count: number;
  /** 1-based page of results; 1 when absent. */
  page?: number;
  config: Config;
  ctx: Pick<ToolContext, "limits" | "signal" | "fetchImpl" | "now">;
}

type Adapter = (req: SearchRequest) => Promise<Omit<SearchHit, "retrievedAt">[]>;

const DEFAULT_BASE: Record<SearchProviderName, string | undefined> = {
  searxng: undefined,
  brave: "https://api.search.brave.com",
  tavily: "https://api.tavily.com",
  exa: "https://api.exa.ai",
  openai: undefined,
};

export function baseUrlFor(provider: SearchProviderName, config: Config): string {
  const base = config.search.baseUrl ?? DEFAULT_BASE[provider];
  if (!base) throw appError("tool_not_configured", "SEARCH_BASE_URL is required for SearXNG.");
  return trimChar(base, "/", "end");
}

const call = (req: SearchRequest, provider: string, url: string, init?: RequestInit) =>
  callProvider({ provider, url, init, limits: req.ctx.limits, signal: req.ctx.signal, fetchImpl: req.ctx.fetchImpl });

const searxng: Adapter = async (req) => {
  const url = new URL(`${baseUrlFor("searxng", req.config)}/search`);
  url.searchParams.set("q", req.query);
  url.searchParams.set("format", "json");
  url.searchParams.set("pageno", String(req.page ?? 1));
  const headers: Record<string, string> = { accept: "application/json" };
  // SearXNG has no key of its own; one set here is for a proxy in front of it.
  if (req.config.search.apiKey) headers.authorization = `Bearer ${req.config.search.apiKey}`;
  const { json } = await call(req, "SearXNG", url.href, { headers });
  return list(json, "results").map((r) => hit(r.title, r.url, r.content, r.publishedDate));
};

// Brave's offset counts pages of `count` results, not results, and stops at 9 (ten pages).
const BRAVE_MAX_OFFSET = 9;

const brave: Adapter = async (req) => {
  const offset = (req.page ?? 1) - 1;
  if (offset > BRAVE_MAX_OFFSET) return [];
  const url = new URL(`${baseUrlFor("brave", req.config)}/res/v1/web/search`);
  url.searchParams.set("q", req.query);
  url.searchParams.set("count", String(Math.min(20, req.count)));
  if (offset > 0) url.searchParams.set("offset", String(offset));
  const { json } = await call(req, "Brave Search", url.href, {
    headers: { accept: "application/json", "x-subscription-token": req.config.search.apiKey ?? "" },
  });
  const web = (json as { web?: unknown } | null)?.web;
  return list(web, "results").map((r) => hit(r.title, r.url, r.description, r.page_age ?? r.age));
};

// Tavily, Exa and OpenAI's hosted search have no pages: their one answer is page 1, and later
// pages are empty without asking them (a repeated call would only return the same hits).
const firstPageOnly = (req: SearchRequest) => (req.page ?? 1) > 1;

const tavily: Adapter = async (req) => {
  if (firstPageOnly(req)) return [];
  const { json } = await call(req, "Tavily", `${baseUrlFor("tavily", req.config)}/search`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${req.config.search.apiKey ?? ""}` },
    body: JSON.stringify({ query: req.query, max_results: req.count, search_depth: "basic" }),
  });
  return list(json, "results").map((r) => hit(r.title, r.url, r.content, r.published_date));
};

const exa: Adapter = async (req) => {
  if (firstPageOnly(req)) return [];
  const { json } = await call(req, "Exa", `${baseUrlFor("exa", req.config)}/search`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": req.config.search.apiKey ?? "" },
    body: JSON.stringify({
      query: req.query,
      numResults: req.count,
      contents: { highlights: { maxCharacters: 600 } },
    }),
  });
  return list(json, "results").map((r) => {
    const highlights = Array.isArray(r.highlights) ? r.highlights.join(" … ") : undefined;
    return hit(r.title, r.url, highlights ?? r.text ?? r.summary, r.publishedDate);
  });
};

/**
 * OpenAI's hosted web search over Chat Completions: a search model answers the query and cites
 * the pages it read as url_citation annotations, which become the hits (the cited span of the
 * answer is the snippet).
 */
const openai: Adapter = async (req) => {
  if (firstPageOnly(req)) return [];
  const base = trimChar(req.config.ai.openaiBaseUrl ?? "https://api.openai.com/v1", "/", "end");
  const { json } = await call(req, "OpenAI web search", `${base}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${req.config.ai.openaiApiKey ?? ""}` },
    body: JSON.stringify({
      model: req.config.search.openaiModel,
      web_search_options: { search_context_size: "low" },
      messages: [{ role: "user", content: `Search the web for: ${req.query}\nCite the pages you use.` }],
    }),
  });
  const message = (json as Loose | null)?.choices?.[0]?.message as Loose | undefined;
  const content = typeof message?.content === "string" ? message.content : "";
  const seen = new Set<string>();
  return list(message, "annotations")
    .filter((a) => a.type === "url_citation" && a.url_citation)
    .map((a) => a.url_citation as Loose)
    .filter((c) => typeof c.url === "string" && !seen.has(c.url) && seen.add(c.url))
    .map((c) => {
      const start = Math.max(0, Number(c.start_index) || 0);
      const end = Number(c.end_index) > start ? Number(c.end_index) : start + 300;
      const sentenceStart = content.lastIndexOf(".", start) + 1;
      return hit(c.title, c.url, content.slice(sentenceStart, end) || content.slice(0, 300), undefined);
    });
};

export const SEARCH_ADAPTERS: Record<SearchProviderName, Adapter> = { searxng, brave, tavily, exa, openai };

// Provider JSON is untyped; read it defensively, dropping entries without a usable URL.
type Loose = Record<string, any>;
function list(json: unknown, key: string): Loose[] {
  const value = (json as Loose | null)?.[key];
  return Array.isArray(value) ? value.filter((v): v is Loose => typeof v === "object" && v !== null) : [];
}

function hit(title: unknown, url: unknown, snippet: unknown, published: unknown): Omit<SearchHit, "retrievedAt"> {
  return {
    title: plain(title) || String(url ?? ""),
    url: typeof url === "string" ? url : "",
    snippet: plain(snippet).slice(0, 600),
    ...(typeof published === "string" && published ? { publishedAt: published } : {}),
  };
}

// Snippets arrive with <strong> highlighting and entities; the model wants plain text.
function plain(value: unknown): string {
  if (typeof value !== "string") return "";
  return stripTags(value)
    .replace(
      /&(amp|lt|gt|quot|#39|nbsp);/g,
      (_m, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " })[e] ?? "",
    )
    .replace(/\s+/g, " ")
    .trim();
}
