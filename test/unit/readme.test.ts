import path from "node:path";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CATALOG } from "../../lib/errors.ts";

// The README documents every error code and every environment variable; these tests keep it so.

const root = path.resolve(import.meta.dirname, "../..");
const readme = readFileSync(path.join(root, "README.md"), "utf8");

/** The body of one "## " section of the README. */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, `README has a "## ${title}" section`).toBeGreaterThan(-1);
  const rest = readme.slice(start + title.length + 5);
  const end = rest.search(/\n## /);
  return end === -1 ? rest : rest.slice(0, end);
}

/** First-column `code` cells of the Markdown table rows in a section. */
const tableKeys = (text: string) => [...text.matchAll(/^\|\s*`([^`]+)`\s*\|([^|]*)\|/gm)].map((m) => ({ key: m[1], second: m[2].trim() }));

describe("README error catalog", () => {
  const rows = tableKeys(section("Errors"));
  const documented = new Map(rows.map((r) => [r.key, r.second]));

  it("lists every code of lib/errors.ts", () => {
    const missing = Object.keys(ERROR_CATALOG).filter((c) => !documented.has(c));
    expect(missing, "codes missing from the README's error table").toEqual([]);
  });

  it("lists no code that the catalog does not have, and none twice", () => {
    const extra = rows.map((r) => r.key).filter((c) => !(c in ERROR_CATALOG));
    expect(extra, "codes in the README that lib/errors.ts does not define").toEqual([]);
    expect(rows.length).toBe(documented.size);
  });

  it("gives each code the catalog's HTTP status", () => {
    const wrong = Object.entries(ERROR_CATALOG)
      .filter(([code, e]) => documented.has(code) && documented.get(code) !== String(e.status))
      .map(([code, e]) => `${code}: README ${documented.get(code)}, catalog ${e.status}`);
    expect(wrong).toEqual([]);
  });

  it("every catalog entry has a non-empty message and a real HTTP status", () => {
    for (const [code, e] of Object.entries(ERROR_CATALOG)) {
      expect(code).toMatch(/^[a-z][a-z_]*[a-z]$/);
      expect(e.message.length).toBeGreaterThan(0);
      expect(e.status).toBeGreaterThanOrEqual(400);
      expect(e.status).toBeLessThan(600);
    }
  });
});

describe("README configuration table", () => {
  const source = readFileSync(path.join(root, "lib", "config.ts"), "utf8");
  const schemaBody = source.slice(source.indexOf("const schema = z.object({"), source.indexOf("});", source.indexOf("const schema = z.object({")));
  const variables = [...schemaBody.matchAll(/^\s{2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]);
  const documented = tableKeys(section("Configuration")).map((r) => r.key);

  it("finds the variables in lib/config.ts", () => {
    expect(variables).toContain("DATABASE_URL");
    expect(variables.length).toBeGreaterThan(20);
  });

  it("documents every variable lib/config.ts reads, with a default", () => {
    expect(variables.filter((v) => !documented.includes(v)), "variables missing from the README").toEqual([]);
    for (const r of tableKeys(section("Configuration"))) expect(r.second.length, r.key).toBeGreaterThan(0);
  });

  it("documents no variable that lib/config.ts does not read", () => {
    expect(documented.filter((v) => !variables.includes(v)), "README variables that lib/config.ts does not read").toEqual([]);
  });

  it("calls ALLOW_PRIVATE_NETWORK dangerous and off by default", () => {
    const row = section("Configuration").split("\n").find((l) => l.startsWith("| `ALLOW_PRIVATE_NETWORK`"))!;
    expect(row).toMatch(/`false`/);
    expect(row).toMatch(/Dangerous/i);
  });
});

describe("README quick start", () => {
  it("says npm ci && npm start, then npm test", () => {
    const qs = section("Quick start");
    expect(qs).toContain("npm ci && npm start");
    expect(qs).toContain("npm test");
    expect(qs.indexOf("npm ci && npm start")).toBeLessThan(qs.indexOf("npm test"));
  });
});
