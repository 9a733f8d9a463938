import http from "node:http";
import type { AddressInfo } from "node:net";
import type { HostLookup } from "../../lib/net/index.ts";
import { createFakeDns } from "./fake-dns.ts";
import { generateCompanies, withUrls, type WorldCompany } from "./fake-world-data.ts";
import {
  DIRECTORY_HOST,
  aboutPage,
  buildIndex,
  directoryHtml,
  directoryPages,
  homePage,
  searchIndex,
} from "./fake-world-pages.ts";

// A deterministic world of companies on 127.0.0.1 for finding rows: a SearXNG-compatible search
// (GET /search?q&format=json&pageno) and every company's site, all on ONE server that routes by
// the Host header. Company hosts are `<slug>.test` (some also `www.<slug>.test`) and
// `directory.test`; `lookup` resolves them to 127.0.0.1, so the URL guard passes them when
// ALLOWED_PRIVATE_HOSTS (the tool limits' allowedPrivateHosts) lists 127.0.0.1.

export {
  TARGET,
  TARGET_QUERY,
  meets,
  type CompanyKind,
  type WorldCompany,
  type WorldCriteria,
} from "./fake-world-data.ts";
export { DIRECTORY_HOST, INJECTION_TEXT, factsSentence } from "./fake-world-pages.ts";

export interface FakeWorldOptions {
  /** Default 300; at least 20. */
  companies?: number;
  /** Default 1; the same seed gives the same companies, names and facts. */
  seed?: number;
  /** Search results per page; default 10. */
  resultsPerPage?: number;
  /**
   * "names" (default): hosts are `<slug>.test`, resolved by `lookup` only (one process).
   * "loopback": each company is an address of its own in 127.0.0.0/8 (127.0.1.1, 127.0.1.2, …),
   * which any process reaches without a resolver: for a server started as a process of its own.
   * ALLOWED_PRIVATE_HOSTS=127.0.0.0/8 lets the guard through. Its duplicates are /about pages.
   */
  addressing?: "names" | "loopback";
  /** The port to listen on; default any free one. */
  port?: number;
}

export interface WorldSearch {
  q: string;
  pageno: number;
}

export interface WorldFetch {
  /** Host name without the port. */
  host: string;
  path: string;
  status: number;
}

export interface FakeWorld {
  /** SEARCH_BASE_URL for SEARCH_PROVIDER=searxng. */
  searchUrl: string;
  port: number;
  /** Every host name the world serves → "127.0.0.1". */
  hosts: Record<string, string>;
  /** Resolves `hosts` for the URL guard (ToolContext.lookup, startEngine's tools.lookup). */
  lookup: HostLookup;
  /** The ground truth, in generation order. */
  companies: WorldCompany[];
  /** Each search request received, in order. */
  searches: WorldSearch[];
  /** Each page request received on a company or directory host, in order. */
  fetches: WorldFetch[];
  /** http://<host>:<port><path>, the URL form search results and directories use. */
  urlOf(host: string, path?: string): string;
  /** Empties `searches` and `fetches`. */
  reset(): void;
  close(): Promise<void>;
}

const LOOPBACK = "127.0.0.1";

export async function startFakeWorld(opts: FakeWorldOptions = {}): Promise<FakeWorld> {
  const perPage = opts.resultsPerPage ?? 10;
  if (!Number.isInteger(perPage) || perPage < 1) throw new Error("resultsPerPage must be a whole number from 1");
  const loopback = opts.addressing === "loopback";
  const drafts = generateCompanies(opts.companies ?? 300, opts.seed ?? 1).map((c, i) =>
    loopback ? { ...c, domain: `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`, www: false } : c,
  );
  const searches: WorldSearch[] = [];
  const fetches: WorldFetch[] = [];
  // Filled once the port is known; requests cannot arrive before listen() resolves.
  let companies: WorldCompany[] = [];
  let index: ReturnType<typeof buildIndex> = [];
  let directory: ReturnType<typeof directoryPages> = new Map();
  const byHost = new Map<string, WorldCompany>();
  const directoryHost = loopback ? "127.0.0.254" : DIRECTORY_HOST;

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const host = (req.headers.host ?? "").replace(/:\d+$/, "").toLowerCase();
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { "content-type": `${type}; charset=utf-8` });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (host === LOOPBACK) {
      if (url.pathname !== "/search") return send(404, "application/json", '{"error":"no such route"}');
      const q = url.searchParams.get("q") ?? "";
      const pageno = Math.max(1, Number.parseInt(url.searchParams.get("pageno") ?? "1", 10) || 1);
      searches.push({ q, pageno });
      const all = searchIndex(index, q);
      const results = all.slice((pageno - 1) * perPage, pageno * perPage);
      return send(
        200,
        "application/json",
        JSON.stringify({
          query: q,
          number_of_results: all.length,
          results: results.map((r) => ({ ...r, engine: "world" })),
        }),
      );
    }

    const html = pageFor(host, url.pathname);
    fetches.push({ host, path: url.pathname, status: html === undefined ? 404 : 200 });
    if (html === undefined) return send(404, "text/html", "<!doctype html><title>Not found</title><p>Not found.</p>");
    return send(200, "text/html", html);
  });

  function pageFor(host: string, path: string): string | undefined {
    if (host === directoryHost) {
      const page = directory.get(path.replace(/\/$/, ""));
      return page && directoryHtml(page, port);
    }
    const c = byHost.get(host);
    if (!c) return undefined;
    if (path === "/") return homePage(c);
    if (path === "/about") return aboutPage(c, c.domain);
    return undefined;
  }

  // Every address of 127.0.0.0/8 reaches a socket bound to all of them; 127.0.0.1 alone would not.
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, loopback ? "0.0.0.0" : LOOPBACK, resolve));
  const { port } = server.address() as AddressInfo;
  companies = drafts.map((c) => withUrls(c, port));
  index = buildIndex(companies, port, directoryHost);
  directory = directoryPages(companies);
  for (const c of companies) {
    byHost.set(c.domain, c);
    if (c.www) byHost.set(`www.${c.domain}`, c);
  }
  const hosts: Record<string, string> = Object.fromEntries(
    [directoryHost, ...byHost.keys()].map((h) => [h, loopback ? h : LOOPBACK]),
  );
  const dns = createFakeDns({ hosts: Object.fromEntries(Object.keys(hosts).map((h) => [h, [LOOPBACK]])) });

  return {
    searchUrl: `http://${LOOPBACK}:${port}`,
    port,
    hosts,
    lookup: dns.lookup,
    companies,
    searches,
    fetches,
    urlOf: (host, path = "/") => `http://${host}:${port}${path}`,
    reset() {
      searches.length = 0;
      fetches.length = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
