import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors.ts";
import { MemorySearchCache, searchCacheKey, searchPage } from "../../lib/tools/index.ts";
import { FAKE_SEARCH_KEY, startFakeSearch, type FakeProvider, type FakeSearch } from "../support/fake-search.ts";
import { makeContext } from "./context.ts";

// Pages of a search: SearXNG's pageno, Brave's offset (in pages, at most 9); Tavily, Exa and
// OpenAI have no pages, so a later page is empty and costs no request.

const providers: FakeProvider[] = ["searxng", "brave", "tavily", "exa"];
const fakes = {} as Record<FakeProvider, FakeSearch>;

beforeAll(async () => {
  for (const p of providers) fakes[p] = await startFakeSearch(p);
});
afterAll(async () => {
  await Promise.all(providers.map((p) => fakes[p].close()));
});

const envFor = (p: FakeProvider) => ({
  SEARCH_PROVIDER: p,
  SEARCH_BASE_URL: fakes[p].url,
  SEARCH_API_KEY: FAKE_SEARCH_KEY,
  SEARCH_MAX_RESULTS: "3",
});
const last = (p: FakeProvider) => fakes[p].requests[fakes[p].requests.length - 1];

describe("searchPage", () => {
  it("sends SearXNG's pageno, 1 for the first page", async () => {
    const ctx = makeContext(envFor("searxng"));
    const first = await searchPage("solar panels", 1, ctx);
    expect(last("searxng").query).toMatchObject({ q: "solar panels", format: "json", pageno: "1" });
    const third = await searchPage("solar panels", 3, ctx);
    expect(last("searxng").query.pageno).toBe("3");
    expect(first.map((h) => h.url)).toEqual([1, 2, 3].map((k) => `https://example.com/solar-panels/${k}`));
    // SearXNG pages hold its own page size (8 in the fake), of which the tool keeps the first 3.
    expect(third[0].url).toBe("https://example.com/solar-panels/17");
  });

  it("sends Brave's offset in pages, none for the first, and stops after offset 9", async () => {
    const ctx = makeContext(envFor("brave"));
    await searchPage("wind", 1, ctx);
    expect(last("brave").query).toEqual({ q: "wind", count: "3" });
    const second = await searchPage("wind", 2, ctx);
    expect(last("brave").query).toEqual({ q: "wind", count: "3", offset: "1" });
    expect(second[0].url).toBe("https://example.com/wind/4");
    await searchPage("wind", 10, ctx);
    expect(last("brave").query.offset).toBe("9");
    const before = fakes.brave.count();
    expect(await searchPage("wind", 11, ctx)).toEqual([]);
    expect(fakes.brave.count()).toBe(before);
  });

  it.each(["tavily", "exa"] as const)("%s has no pages: page 2 is empty and sends nothing", async (p) => {
    const ctx = makeContext(envFor(p));
    expect(await searchPage("geothermal", 1, ctx)).toHaveLength(3);
    const before = fakes[p].count();
    expect(await searchPage("geothermal", 2, ctx)).toEqual([]);
    expect(fakes[p].count()).toBe(before);
  });

  it("OpenAI's hosted search has no pages either: page 2 asks nothing", async () => {
    // An unreachable base: a request would fail, so an empty answer proves none was sent.
    const env = { SEARCH_PROVIDER: "openai", OPENAI_API_KEY: "sk", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };
    expect(await searchPage("anything", 2, makeContext(env))).toEqual([]);
  });

  it("caches each page under its own key; page 1 keeps the key it had before pages", async () => {
    const cache = new MemorySearchCache();
    const ctx = makeContext(envFor("searxng"), { cache, workspaceId: "ws_p" });
    const start = fakes.searxng.count();
    const p1 = await searchPage("heat pumps", 1, ctx);
    const p2 = await searchPage("heat pumps", 2, ctx);
    expect(fakes.searxng.count()).toBe(start + 2);
    expect(p2[0].url).not.toBe(p1[0].url);
    expect(await searchPage("Heat  Pumps", 2, ctx)).toEqual(p2);
    expect(await searchPage("heat pumps", 1, ctx)).toEqual(p1);
    expect(fakes.searxng.count()).toBe(start + 2);

    expect(searchCacheKey("ws_p", "searxng", "heat pumps", 3)).toBe("ws_p:searxng:3:heat pumps");
    expect(await cache.get("ws_p:searxng:3:heat pumps")).toEqual(p1);
    expect(await cache.get(searchCacheKey("ws_p", "searxng", "heat pumps", 3, 2))).toEqual(p2);
    // A page-1 query that looks like a page marker cannot collide with a later page's key.
    expect(searchCacheKey("w", "brave", "2:x", 3)).not.toBe(searchCacheKey("w", "brave", "x", 3, 2));
  });

  it("checks the configuration and the page number before asking anyone", async () => {
    const unconfigured = await searchPage("x", 1, makeContext({})).catch((e) => e);
    expect(unconfigured).toBeInstanceOf(AppError);
    expect(unconfigured.code).toBe("tool_not_configured");
    for (const page of [0, -1, 1.5]) {
      const err = await searchPage("x", page, makeContext(envFor("searxng"))).catch((e) => e);
      expect(err.code).toBe("validation_failed");
    }
  });
});
