import http from "node:http";
import type { AddressInfo } from "node:net";

// Fake search APIs on 127.0.0.1 speaking each provider's documented JSON: SearXNG
// (GET /search?format=json), Brave (GET /res/v1/web/search), Tavily (POST /search, Bearer key)
// and Exa (POST /search, x-api-key). They count requests and can be told to fail.

export type FakeProvider = "searxng" | "brave" | "tavily" | "exa";

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface FakeSearch {
  url: string;
  requests: RecordedRequest[];
  count(): number;
  /** The next `times` requests answer `status` (with Retry-After when given). */
  failNext(status: number, times?: number, retryAfter?: string): void;
  /** Results per query; default 8. Set 0 to answer with no results. */
  setResultCount(n: number): void;
  close(): Promise<void>;
}

export const FAKE_SEARCH_KEY = "test-search-key";

/** Result k of a query is numbered across pages: page 2 of 8 per page starts at 9. */
export function fakeResults(query: string, n: number, page = 1) {
  const slug = query.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return Array.from({ length: n }, (_, i) => {
    const k = (page - 1) * n + i + 1;
    return {
      title: `Result ${k} for <b>${query}</b>`,
      url: `https://example.com/${slug}/${k}`,
      snippet: `Snippet ${k} about <strong>${query}</strong> &amp; more.`,
    };
  });
}

export async function startFakeSearch(provider: FakeProvider): Promise<FakeSearch> {
  const requests: RecordedRequest[] = [];
  const failures: { status: number; retryAfter?: string }[] = [];
  let resultCount = 8;

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString();
    const body = raw ? JSON.parse(raw) : undefined;
    requests.push({
      method: req.method ?? "",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
    });
    const json = (status: number, data: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(data));
    };

    const failure = failures.shift();
    if (failure) {
      return json(
        failure.status,
        { error: "injected" },
        failure.retryAfter ? { "retry-after": failure.retryAfter } : {},
      );
    }
    const route = routeFor(provider, req.method ?? "", url.pathname);
    if (!route) return json(404, { error: "no such route" });
    if (!authorised(provider, req.headers)) return json(401, { error: "bad key" });

    const query = String(provider === "tavily" || provider === "exa" ? body?.query : url.searchParams.get("q"));
    // SearXNG numbers pages from 1; Brave's offset counts pages from 0.
    const page =
      provider === "searxng"
        ? Number(url.searchParams.get("pageno") ?? 1)
        : provider === "brave"
          ? Number(url.searchParams.get("offset") ?? 0) + 1
          : 1;
    // Brave's pages hold `count` results; SearXNG's page size is its own.
    const perPage =
      provider === "brave" ? Math.min(resultCount, Number(url.searchParams.get("count") ?? 20)) : resultCount;
    const results = fakeResults(query, perPage, page);
    switch (provider) {
      case "searxng":
        return json(200, {
          query,
          number_of_results: results.length,
          results: results.map((r) => ({ url: r.url, title: r.title, content: r.snippet, engine: "fake" })),
        });
      case "brave":
        return json(200, {
          type: "search",
          query: { original: query },
          web: {
            type: "search",
            results: results.map((r) => ({ title: r.title, url: r.url, description: r.snippet, age: "2 days ago" })),
          },
        });
      case "tavily":
        return json(200, {
          query,
          results: results.map((r, i) => ({ title: r.title, url: r.url, content: r.snippet, score: 1 - i / 10 })),
        });
      case "exa":
        return json(200, {
          requestId: "fake",
          results: results.map((r) => ({
            id: r.url,
            title: r.title,
            url: r.url,
            highlights: [r.snippet],
            publishedDate: "2024-01-02",
          })),
        });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: () => requests.length,
    failNext(status, times = 1, retryAfter) {
      for (let i = 0; i < times; i++) failures.push({ status, retryAfter });
    },
    setResultCount(n) {
      resultCount = n;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function routeFor(provider: FakeProvider, method: string, path: string): boolean {
  switch (provider) {
    case "searxng":
      return method === "GET" && path === "/search";
    case "brave":
      return method === "GET" && path === "/res/v1/web/search";
    case "tavily":
    case "exa":
      return method === "POST" && path === "/search";
  }
}

function authorised(provider: FakeProvider, h: http.IncomingHttpHeaders): boolean {
  switch (provider) {
    case "searxng":
      return true;
    case "brave":
      return h["x-subscription-token"] === FAKE_SEARCH_KEY;
    case "tavily":
      return h.authorization === `Bearer ${FAKE_SEARCH_KEY}`;
    case "exa":
      return h["x-api-key"] === FAKE_SEARCH_KEY;
  }
}

// Hunter.io email-finder (GET /v2/email-finder?domain&first_name&last_name&api_key).

export const FAKE_HUNTER_KEY = "test-hunter-key";

export interface HunterAnswer {
  email: string | null;
  score?: number | null;
  verification?: string | null;
  sources?: { domain: string; uri: string; extracted_on?: string }[];
}

export interface FakeHunter {
  url: string;
  requests: Record<string, string>[];
  /** Answers keyed by "first last@domain" (lower case); unknown people get email null. */
  people: Map<string, HunterAnswer>;
  close(): Promise<void>;
}

export async function startFakeHunter(): Promise<FakeHunter> {
  const requests: Record<string, string>[] = [];
  const people = new Map<string, HunterAnswer>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const q = Object.fromEntries(url.searchParams);
    requests.push(q);
    const json = (status: number, data: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(data));
    };
    if (url.pathname !== "/v2/email-finder") return json(404, { errors: [{ id: "not_found" }] });
    if (q.api_key !== FAKE_HUNTER_KEY) {
      return json(401, {
        errors: [{ id: "authentication_failed", code: 401, details: "No user found for the API key supplied" }],
      });
    }
    const answer = people.get(`${q.first_name} ${q.last_name ?? ""}@${q.domain}`.toLowerCase());
    return json(200, {
      data: {
        first_name: q.first_name,
        last_name: q.last_name,
        domain: q.domain,
        email: answer?.email ?? null,
        score: answer?.score ?? null,
        accept_all: answer?.verification === "accept_all",
        sources: answer?.sources ?? [],
        verification: { date: answer?.verification ? "2024-05-01" : null, status: answer?.verification ?? null },
      },
      meta: { params: q },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    people,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
