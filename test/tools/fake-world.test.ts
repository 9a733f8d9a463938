import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { safeFetch } from "../../lib/net/index.ts";
import { scrapeUrlTool, searchPage } from "../../lib/tools/index.ts";
import {
  DIRECTORY_HOST,
  INJECTION_TEXT,
  TARGET,
  TARGET_QUERY,
  meets,
  startFakeWorld,
  type FakeWorld,
} from "../support/fake-world.ts";
import { makeContext } from "./context.ts";

// The fake world itself: its search pages, ordering, determinism, host routing, and that the
// real URL guard reaches its sites through its lookup.

let world: FakeWorld;
beforeAll(async () => {
  world = await startFakeWorld();
});
afterAll(async () => {
  await world?.close();
});

interface Result {
  title: string;
  url: string;
  content: string;
}
async function search(q: string, pageno = 1): Promise<Result[]> {
  const res = await fetch(
    `${world.searchUrl}/search?${new URLSearchParams({ q, format: "json", pageno: String(pageno) })}`,
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: Result[] }).results;
}
/** GET on the world's one port with a chosen Host header (no DNS involved). */
function getAs(host: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: "127.0.0.1", port: world.port, path, headers: { host: `${host}:${world.port}` } },
      (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
  });
}
const hostOf = (url: string) => new URL(url).hostname.replace(/^www\./, "");

describe("the fake world's ground truth", () => {
  it("holds 20 to 40 true matches for the target, near misses and every tricky kind", () => {
    expect(world.companies).toHaveLength(300);
    const matches = world.companies.filter((c) => meets(c, TARGET));
    expect(matches.length).toBeGreaterThanOrEqual(20);
    expect(matches.length).toBeLessThanOrEqual(40);
    const berlinSoftwareB2b = { city: "Berlin", industry: "software", b2b: true };
    expect(world.companies.some((c) => meets(c, berlinSoftwareB2b) && c.employees > 200)).toBe(true);
    expect(world.companies.some((c) => meets(c, { ...TARGET, city: "Munich" }))).toBe(true);
    expect(world.companies.some((c) => meets(c, { ...TARGET, b2b: false }))).toBe(true);
    for (const kind of ["plain", "silent", "contradicting", "injection", "duplicate"]) {
      expect(world.companies.some((c) => c.kind === kind)).toBe(true);
    }
    expect(world.companies.filter((c) => c.kind === "contradicting").every((c) => c.city !== c.listedCity)).toBe(true);
    expect(world.companies.filter((c) => c.kind === "injection").some((c) => meets(c, TARGET))).toBe(false);
    expect(new Set(world.companies.map((c) => c.domain)).size).toBe(300);
  });

  it("is the same world for the same seed and another for another seed", async () => {
    const strip = (w: FakeWorld) => w.companies.map(({ urls: _urls, ...c }) => c);
    const again = await startFakeWorld({ seed: 1 });
    const other = await startFakeWorld({ seed: 2 });
    try {
      expect(strip(again)).toEqual(strip(world));
      expect(strip(other)).not.toEqual(strip(world));
    } finally {
      await Promise.all([again.close(), other.close()]);
    }
  });
});

describe("the fake world's search", () => {
  it("pages the results by score then name, and answers [] past the end", async () => {
    world.reset();
    const all: Result[] = [];
    for (let pageno = 1; ; pageno++) {
      const page = await search(TARGET_QUERY, pageno);
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(10);
      all.push(...page);
    }
    expect(world.searches.at(-1)).toEqual({ q: TARGET_QUERY, pageno: Math.ceil(all.length / 10) + 1 });
    expect(new Set(all.map((r) => r.url)).size).toBe(all.length);
    // Every true match whose snippet says Berlin is found; the full-score block comes first, by name.
    const found = new Set(all.filter((r) => !r.url.includes(DIRECTORY_HOST)).map((r) => hostOf(r.url)));
    for (const c of world.companies.filter((c) => meets(c, TARGET))) expect(found.has(c.domain)).toBe(true);
    const top = all.filter((r) =>
      /B2B software company in Berlin|B2B and B2C software companies in Berlin/.test(r.content),
    );
    expect(all.slice(0, top.length)).toEqual(top);
    // Ties go by company name (a directory page by its title), then URL.
    const byDomain = new Map(world.companies.map((c) => [c.domain, c.name]));
    const keys = top.map((r) => [byDomain.get(hostOf(r.url)) ?? r.title, r.url]);
    const sorted = [...keys].sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
    expect(keys).toEqual(sorted);
  });

  it("lists duplicates twice, contradicting companies under their stale city, and directory pages", async () => {
    const all = [...(await search("B2B software Berlin", 1)), ...(await search("B2B software Berlin", 2))];
    for (let p = 3; all.length === (p - 1) * 10; p++) all.push(...(await search("B2B software Berlin", p)));
    const dup = world.companies.find((c) => c.kind === "duplicate" && c.listedCity === "Berlin");
    expect(all.filter((r) => hostOf(r.url) === dup?.domain)).toHaveLength(2);
    const liar = world.companies.find((c) => c.kind === "contradicting");
    expect(all.find((r) => hostOf(r.url) === liar?.domain)?.content).toContain("in Berlin");
    expect(all.some((r) => new URL(r.url).hostname === DIRECTORY_HOST)).toBe(true);
    expect(await search("zebra unicorn")).toEqual([]);
  });
});

describe("the fake world's sites", () => {
  it("routes by Host: home, /about, the www alias, directories, and 404 elsewhere", async () => {
    world.reset();
    const c = world.companies.find((x) => x.kind === "plain")!;
    const home = await getAs(c.domain, "/");
    expect(home.status).toBe(200);
    expect(home.body).toContain(
      `${c.name} is a ${c.b2b ? "B2B" : "B2C"} ${c.industry} company headquartered in ${c.city} with ${c.employees} employees. Founded in ${c.founded}.`,
    );
    expect((await getAs(c.domain, "/about")).body).toContain(`About ${c.name}`);
    expect((await getAs(c.domain, "/careers")).status).toBe(404);
    expect((await getAs("nowhere.test", "/")).status).toBe(404);
    const alias = world.companies.find((x) => x.www)!;
    expect((await getAs(`www.${alias.domain}`, "/")).body).toContain(alias.name);
    expect(alias.urls).toContain(world.urlOf(`www.${alias.domain}`, "/about"));
    const dir = await getAs(DIRECTORY_HOST, "/berlin/software/1");
    expect(dir.status).toBe(200);
    expect(dir.body.match(/<li>/g)?.length).toBe(8);
    expect(world.fetches.map((f) => `${f.host}${f.path} ${f.status}`)).toEqual([
      `${c.domain}/ 200`,
      `${c.domain}/about 200`,
      `${c.domain}/careers 404`,
      "nowhere.test/ 404",
      `www.${alias.domain}/ 200`,
      `${DIRECTORY_HOST}/berlin/software/1 200`,
    ]);
  });

  it("keeps silent companies' head count and injection text where the brief says", async () => {
    const silent = world.companies.find((x) => x.kind === "silent")!;
    for (const path of ["/", "/about"]) {
      const { body } = await getAs(silent.domain, path);
      expect(body).not.toMatch(/employees|people work/);
      expect(body).toContain(silent.city);
    }
    const injected = world.companies.find((x) => x.kind === "injection")!;
    expect((await getAs(injected.domain, "/")).body).toContain(INJECTION_TEXT);
  });
});

describe("the fake world through the real guard", () => {
  it("safeFetch and scrape-url reach a company with the world's lookup, and are blocked without the allowance", async () => {
    world.reset();
    const c = world.companies.find((x) => meets(x, TARGET) && x.kind === "plain")!;
    const url = world.urlOf(c.domain, "/about");
    const limits = { maxBytes: 1_000_000, timeoutMs: 5_000, connectTimeoutMs: 2_000, lookup: world.lookup };
    const res = await safeFetch(url, { ...limits, allowedPrivateHosts: ["127.0.0.1"] });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toContain(`with ${c.employees} employees`);
    await expect(safeFetch(url, { ...limits, allowedPrivateHosts: [] })).rejects.toMatchObject({ code: "blocked_url" });

    const ctx = makeContext({}, { lookup: world.lookup, limits: { allowedPrivateHosts: ["127.0.0.1"] } });
    const scraped = await scrapeUrlTool.execute({ url: world.urlOf(c.domain) }, ctx);
    expect(JSON.stringify(scraped.output)).toContain(`headquartered in ${c.city}`);
    expect(scraped.documents[0].url).toBe(world.urlOf(c.domain));
    expect(world.fetches.map((f) => `${f.host}${f.path}`)).toEqual([`${c.domain}/about`, `${c.domain}/`]);
  });

  it("answers searchPage as a SearXNG instance, page after page", async () => {
    world.reset();
    const env = { SEARCH_PROVIDER: "searxng", SEARCH_BASE_URL: world.searchUrl, SEARCH_MAX_RESULTS: "10" };
    const ctx = makeContext(env);
    const first = await searchPage(TARGET_QUERY, 1, ctx);
    const second = await searchPage(TARGET_QUERY, 2, ctx);
    expect(first).toHaveLength(10);
    expect(second[0].url).not.toBe(first[0].url);
    expect(world.searches).toEqual([
      { q: TARGET_QUERY, pageno: 1 },
      { q: TARGET_QUERY, pageno: 2 },
    ]);
  });
});
