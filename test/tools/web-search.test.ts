import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config.ts";
import { AppError } from "../../lib/errors.ts";
import { MemorySearchCache, webSearchTool } from "../../lib/tools/index.ts";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { FAKE_SEARCH_KEY, startFakeSearch, type FakeProvider, type FakeSearch } from "../support/fake-search.ts";
import { makeContext } from "./context.ts";

const providers: FakeProvider[] = ["searxng", "brave", "tavily", "exa"];
const fakes = {} as Record<FakeProvider, FakeSearch>;

beforeAll(async () => {
  for (const p of providers) fakes[p] = await startFakeSearch(p);
});
afterAll(async () => {
  await Promise.all(providers.map((p) => fakes[p].close()));
});

const envFor = (p: FakeProvider, extra: Record<string, string> = {}) => ({
  SEARCH_PROVIDER: p,
  SEARCH_BASE_URL: fakes[p].url,
  SEARCH_API_KEY: FAKE_SEARCH_KEY,
  SEARCH_MAX_RESULTS: "3",
  ...extra,
});

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected a rejection");
}

describe("web-search isConfigured", () => {
  it("names the env vars to set when nothing is configured", () => {
    const check = webSearchTool.isConfigured(loadConfig({}));
    expect(check.ok).toBe(false);
    if (!check.ok) {
      for (const v of ["SEARCH_PROVIDER", "SEARCH_BASE_URL", "SEARCH_API_KEY"]) expect(check.message).toContain(v);
    }
  });

  it.each([
    [{ SEARCH_PROVIDER: "searxng" }, false],
    [{ SEARCH_PROVIDER: "searxng", SEARCH_BASE_URL: "http://searx.internal:8080" }, true],
    [{ SEARCH_PROVIDER: "brave" }, false],
    [{ SEARCH_PROVIDER: "brave", SEARCH_API_KEY: "k" }, true],
    [{ SEARCH_PROVIDER: "tavily", SEARCH_API_KEY: "k" }, true],
    [{ SEARCH_PROVIDER: "exa" }, false],
    [{ SEARCH_PROVIDER: "openai" }, false],
    [{ SEARCH_PROVIDER: "openai", OPENAI_API_KEY: "sk" }, true],
  ])("%j → ok %s", (env, ok) => {
    expect(webSearchTool.isConfigured(loadConfig(env)).ok).toBe(ok);
  });

  it("uses OpenAI's hosted search: url_citation annotations become the documents", async () => {
    const bodies: any[] = [];
    const answer = "Acme was founded in 1987. It makes rockets.";
    const server = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        bodies.push({ path: req.url, auth: req.headers.authorization, body: JSON.parse(raw) });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "chatcmpl-1",
            object: "chat.completion",
            model: "gpt-4o-mini-search-preview",
            choices: [
              {
                index: 0,
                finish_reason: "stop",
                message: {
                  role: "assistant",
                  content: answer,
                  annotations: [
                    {
                      type: "url_citation",
                      url_citation: {
                        url: "https://acme.example/about",
                        title: "About Acme",
                        start_index: 0,
                        end_index: 25,
                      },
                    },
                    {
                      type: "url_citation",
                      url_citation: {
                        url: "https://news.example/acme",
                        title: "Acme news",
                        start_index: 26,
                        end_index: 44,
                      },
                    },
                  ],
                },
              },
            ],
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const env = { SEARCH_PROVIDER: "openai", OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: base };
      const { documents } = await webSearchTool.execute({ query: "acme founding year" }, makeContext(env));
      expect(documents.map((d) => [d.url, d.title])).toEqual([
        ["https://acme.example/about", "About Acme"],
        ["https://news.example/acme", "Acme news"],
      ]);
      expect(documents[0].excerpt).toContain("founded in 1987");
      expect(bodies[0].path).toBe("/v1/chat/completions");
      expect(bodies[0].auth).toBe("Bearer sk-test");
      expect(bodies[0].body.web_search_options).toBeDefined();
      expect(bodies[0].body.model).toBe("gpt-4o-mini-search-preview");
    } finally {
      server.close();
    }
  });

  it("refuses to run unconfigured", async () => {
    const err = await failure(webSearchTool.execute({ query: "x" }, makeContext({})));
    expect(err.code).toBe("tool_not_configured");
  });
});

describe.each(providers)("web-search via %s", (p) => {
  it("returns at most SEARCH_MAX_RESULTS plain-text documents and fenced output", async () => {
    const fake = fakes[p];
    const before = fake.count();
    const { documents, output } = await webSearchTool.execute({ query: "heat pumps" }, makeContext(envFor(p)));
    expect(fake.count()).toBe(before + 1);
    expect(documents).toHaveLength(3);
    expect(documents[0]).toMatchObject({
      url: "https://example.com/heat-pumps/1",
      title: "Result 1 for heat pumps",
      excerpt: "Snippet 1 about heat pumps & more.",
    });
    expect(Number.isNaN(Date.parse(documents[0].retrievedAt))).toBe(false);
    expect(output).toMatch(/^<<<UNTRUSTED_DATA [0-9a-f]{16} /);
    expect(output).toContain("https://example.com/heat-pumps/3");
    expect(output).not.toContain("heat-pumps/4");
  });

  it("speaks the provider's documented request format", async () => {
    const fake = fakes[p];
    await webSearchTool.execute({ query: "solar panels" }, makeContext(envFor(p)));
    const r = fake.requests[fake.requests.length - 1];
    switch (p) {
      case "searxng":
        expect(r).toMatchObject({ method: "GET", path: "/search", query: { q: "solar panels", format: "json" } });
        break;
      case "brave":
        expect(r).toMatchObject({
          method: "GET",
          path: "/res/v1/web/search",
          query: { q: "solar panels", count: "3" },
        });
        expect(r.headers["x-subscription-token"]).toBe(FAKE_SEARCH_KEY);
        break;
      case "tavily":
        expect(r).toMatchObject({ method: "POST", path: "/search", body: { query: "solar panels", max_results: 3 } });
        expect(r.headers.authorization).toBe(`Bearer ${FAKE_SEARCH_KEY}`);
        break;
      case "exa":
        expect(r).toMatchObject({ method: "POST", path: "/search", body: { query: "solar panels", numResults: 3 } });
        expect(r.headers["x-api-key"]).toBe(FAKE_SEARCH_KEY);
        break;
    }
  });
});

describe("web-search caching", () => {
  it("serves a repeated (normalised) query from the cache until the TTL passes", async () => {
    let now = 1_000_000;
    const cache = new MemorySearchCache(100, () => now);
    const ctx = makeContext(envFor("brave", { SEARCH_CACHE_TTL_SECONDS: "60" }), { cache });
    const fake = fakes.brave;
    const start = fake.count();
    const first = await webSearchTool.execute({ query: "Wind  Turbines" }, ctx);
    const second = await webSearchTool.execute({ query: "wind turbines " }, ctx);
    expect(fake.count()).toBe(start + 1);
    expect(second.documents).toEqual(first.documents);
    await webSearchTool.execute({ query: "tidal power" }, ctx);
    expect(fake.count()).toBe(start + 2);
    now += 61_000;
    await webSearchTool.execute({ query: "wind turbines" }, ctx);
    expect(fake.count()).toBe(start + 3);
  });

  it("keeps workspaces apart: one workspace's search never answers another's", async () => {
    const cache = new MemorySearchCache();
    const fake = fakes.brave;
    const start = fake.count();
    await webSearchTool.execute(
      { query: "acme layoffs" },
      makeContext(envFor("brave"), { cache, workspaceId: "ws_a" }),
    );
    await webSearchTool.execute(
      { query: "acme layoffs" },
      makeContext(envFor("brave"), { cache, workspaceId: "ws_b" }),
    );
    await webSearchTool.execute(
      { query: "acme layoffs" },
      makeContext(envFor("brave"), { cache, workspaceId: "ws_a" }),
    );
    expect(fake.count()).toBe(start + 2);
  });

  it("keeps providers apart and does not cache empty answers", async () => {
    const cache = new MemorySearchCache();
    const brave = fakes.brave;
    const tavily = fakes.tavily;
    await webSearchTool.execute({ query: "geothermal" }, makeContext(envFor("brave"), { cache }));
    const t0 = tavily.count();
    await webSearchTool.execute({ query: "geothermal" }, makeContext(envFor("tavily"), { cache }));
    expect(tavily.count()).toBe(t0 + 1);

    brave.setResultCount(0);
    try {
      const b0 = brave.count();
      const empty = await webSearchTool.execute({ query: "nothing here" }, makeContext(envFor("brave"), { cache }));
      expect(empty.documents).toEqual([]);
      expect(empty.output).toContain("No results.");
      await webSearchTool.execute({ query: "nothing here" }, makeContext(envFor("brave"), { cache }));
      expect(brave.count()).toBe(b0 + 2);
    } finally {
      brave.setResultCount(8);
    }
  });
});

describe("web-search retries", () => {
  it("waits for Retry-After on 429, then succeeds", async () => {
    const fake = fakes.tavily;
    fake.failNext(429, 1, "1");
    const start = fake.count();
    const t = Date.now();
    const { documents } = await webSearchTool.execute({ query: "retry me" }, makeContext(envFor("tavily")));
    expect(documents).toHaveLength(3);
    expect(fake.count()).toBe(start + 2);
    expect(Date.now() - t).toBeGreaterThanOrEqual(900);
  });

  it("caps a long Retry-After at maxWaitMs", async () => {
    const fake = fakes.exa;
    fake.failNext(429, 1, "3600");
    const t = Date.now();
    const ctx = makeContext(envFor("exa"), { limits: { retry: { attempts: 3, baseMs: 10, maxWaitMs: 50 } } });
    await webSearchTool.execute({ query: "capped" }, ctx);
    // Against an hour's Retry-After: well under it is the cap, on any machine.
    expect(Date.now() - t).toBeLessThan(20_000);
  });

  it("retries 5xx with backoff and gives up after the attempt limit", async () => {
    const fake = fakes.searxng;
    fake.failNext(502, 2);
    let start = fake.count();
    await webSearchTool.execute({ query: "flaky" }, makeContext(envFor("searxng")));
    expect(fake.count()).toBe(start + 3);

    fake.failNext(500, 3);
    start = fake.count();
    const err = await failure(webSearchTool.execute({ query: "down" }, makeContext(envFor("searxng"))));
    expect(err.code).toBe("tool_failed");
    expect(err.message).toContain("HTTP 500");
    expect(fake.count()).toBe(start + 3);
  });

  it("does not retry a rejected key", async () => {
    const fake = fakes.brave;
    const start = fake.count();
    const env = { ...envFor("brave"), SEARCH_API_KEY: "wrong" };
    const err = await failure(webSearchTool.execute({ query: "auth" }, makeContext(env)));
    expect(err.code).toBe("tool_failed");
    expect(err.message).toContain("401");
    expect(fake.count()).toBe(start + 1);
  });
});
