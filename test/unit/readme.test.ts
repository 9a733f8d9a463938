import path from "node:path";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CATALOG } from "../../lib/errors.ts";

// The README is the front door; docs/ holds the reference, one topic a page. Together they document
// every error code of the catalog and every environment variable lib/config.ts reads, and these
// tests keep them so.

const root = path.resolve(import.meta.dirname, "../..");
const read = (rel: string) => readFileSync(path.join(root, rel), "utf8");

const readme = read("README.md");
const docFiles = readdirSync(path.join(root, "docs"))
  .filter((f) => f.endsWith(".md"))
  .sort()
  .map((f) => `docs/${f}`);
const pages = new Map<string, string>([
  ["README.md", readme],
  ...docFiles.map((f) => [f, read(f)] as [string, string]),
]);
const everything = [...pages.values()].join("\n");

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The body of one heading's section (up to the next heading of the same or a higher level). */
function section(text: string, title: string, level = 2): string {
  const hashes = "#".repeat(level);
  const start = text.indexOf(`\n${hashes} ${title}\n`);
  expect(start, `has a "${hashes} ${title}" section`).toBeGreaterThan(-1);
  const rest = text.slice(start + hashes.length + title.length + 3);
  const end = rest.search(new RegExp(`\\n#{1,${level}} `));
  return end === -1 ? rest : rest.slice(0, end);
}

/** First-column `code` cells of the Markdown table rows in a text, with their second column. */
const tableKeys = (text: string) =>
  [...text.matchAll(/^\|\s*`([^`]+)`\s*\|([^|]*)\|/gm)].map((m) => ({ key: m[1], second: m[2].trim() }));

/** Markdown without fenced code blocks and inline code spans (where `[x](y)` is an example, not a link). */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");

/** The names of the environment variables a TypeScript source reads. */
function envVariablesOf(source: string): string[] {
  const names = new Set<string>();
  // Keys of every z.object({ … }) the environment is parsed with, e.g. `  PORT: int(3000),`.
  for (const m of source.matchAll(/z\s*\.\s*(?:strictObject|looseObject|object)\s*\(\s*\{/g)) {
    let depth = 1;
    let i = m.index! + m[0].length;
    const from = i;
    while (i < source.length && depth > 0) {
      if (source[i] === "{") depth++;
      else if (source[i] === "}") depth--;
      i++;
    }
    const body = source.slice(from, i - 1);
    // Only the object's own keys: lines at the first indentation level of the body.
    const indent = body.match(/^([ \t]+)\S/m)?.[1] ?? "";
    const keyLine = new RegExp(`^${indent}["']?([A-Z][A-Z0-9_]*)["']?\\s*:`, "gm");
    for (const k of body.matchAll(keyLine)) names.add(k[1]);
  }
  // Direct reads: process.env.X, process.env["X"], env.X, env["X"], env?.X.
  for (const m of source.matchAll(/\b(?:process\.env|env)\s*(?:\?\.|\.)\s*([A-Z][A-Z0-9_]*)\b/g)) names.add(m[1]);
  for (const m of source.matchAll(/\b(?:process\.env|env)\s*(?:\?\.)?\[\s*["'`]([A-Z][A-Z0-9_]*)["'`]\s*\]/g))
    names.add(m[1]);
  return [...names].sort();
}

const configVariables = envVariablesOf(read("lib/config.ts"));

/** `NAME` or `NAME=…` written as code somewhere. */
const mentionsVariable = (text: string, name: string) => new RegExp(`\`${escapeRegExp(name)}(?:\`|=)`).test(text);
/** `code` written as code somewhere. */
const mentionsCode = (text: string, code: string) => text.includes(`\`${code}\``);

describe("environment variables of lib/config.ts", () => {
  it("are found by parsing lib/config.ts", () => {
    expect(configVariables.length).toBeGreaterThan(20);
    for (const known of [
      "PORT",
      "DATA_DIR",
      "DATABASE_URL",
      "API_KEY",
      "OPENAI_API_KEY",
      "AI_MODEL",
      "ALLOWED_PRIVATE_HOSTS",
    ]) {
      expect(configVariables, `lib/config.ts reads ${known}`).toContain(known);
    }
  });

  it("the parser finds the usual ways of reading the environment", () => {
    const sample = [
      "const schema = z.object({",
      "  ALPHA: z.string(),",
      "  BETA_2: int(3).describe({ NOT_A_KEY: 1 }),",
      "  nested: z.object({ GAMMA: z.string() }),",
      "});",
      "const a = process.env.DELTA;",
      'const b = env["EPSILON"] ?? env.ZETA;',
      "const lower = process.env.notAVariable;",
    ].join("\n");
    expect(envVariablesOf(sample)).toEqual(["ALPHA", "BETA_2", "DELTA", "EPSILON", "GAMMA", "ZETA"]);
  });

  it("are each documented somewhere in the README or docs/", () => {
    const missing = configVariables.filter((v) => !mentionsVariable(everything, v));
    expect(missing, "variables of lib/config.ts documented nowhere").toEqual([]);
  });
});

describe("error codes of lib/errors.ts", () => {
  it("are each documented somewhere in the README or docs/", () => {
    const missing = Object.keys(ERROR_CATALOG).filter((c) => !mentionsCode(everything, c));
    expect(missing, "codes documented nowhere").toEqual([]);
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

describe("docs/api.md error table", () => {
  const rows = tableKeys(section(pages.get("docs/api.md") ?? "", "Errors"));
  const documented = new Map(rows.map((r) => [r.key, r.second]));

  it("lists every code of lib/errors.ts", () => {
    const missing = Object.keys(ERROR_CATALOG).filter((c) => !documented.has(c));
    expect(missing, "codes missing from the error table").toEqual([]);
  });

  it("lists no code that the catalog does not have, and none twice", () => {
    const extra = rows.map((r) => r.key).filter((c) => !(c in ERROR_CATALOG));
    expect(extra, "codes in the table that lib/errors.ts does not define").toEqual([]);
    expect(rows.length).toBe(documented.size);
  });

  it("gives each code the catalog's HTTP status", () => {
    const wrong = Object.entries(ERROR_CATALOG)
      .filter(([code, e]) => documented.has(code) && documented.get(code) !== String(e.status))
      .map(([code, e]) => `${code}: docs ${documented.get(code)}, catalog ${e.status}`);
    expect(wrong).toEqual([]);
  });
});

describe("docs/deployment.md configuration reference", () => {
  const config = section(pages.get("docs/deployment.md") ?? "", "Configuration");
  const rows = tableKeys(config);
  const documented = rows.map((r) => r.key);

  it("has a row, with a default, for every variable lib/config.ts reads", () => {
    expect(
      configVariables.filter((v) => !documented.includes(v)),
      "variables missing from the reference",
    ).toEqual([]);
    for (const r of rows) expect(r.second.length, r.key).toBeGreaterThan(0);
  });

  it("has no row for a variable lib/config.ts does not read, and none twice", () => {
    expect(
      documented.filter((v) => !configVariables.includes(v)),
      "variables that lib/config.ts does not read",
    ).toEqual([]);
    expect(new Set(documented).size).toBe(documented.length);
  });

  it("calls ALLOW_PRIVATE_NETWORK removed and names its replacement", () => {
    const row = config.split("\n").find((l) => l.startsWith("| `ALLOW_PRIVATE_NETWORK`"))!;
    expect(row).toMatch(/removed/i);
    expect(row).toMatch(/`ALLOWED_PRIVATE_HOSTS`/);
  });
});

describe("README", () => {
  it("is a front door of at most 300 lines", () => {
    expect(readme.trimEnd().split("\n").length).toBeLessThanOrEqual(300);
  });

  it("quick start says npm ci && npm start, then npm test, on Node 22 or newer", () => {
    const qs = section(readme, "Quick start");
    expect(qs).toContain("npm ci && npm start");
    expect(qs).toContain("npm test");
    expect(qs.indexOf("npm ci && npm start")).toBeLessThan(qs.indexOf("npm test"));
    expect(qs).toMatch(/Node 22 or newer/);
  });

  it("configuration essentials name only variables that lib/config.ts reads", () => {
    const keys = tableKeys(section(readme, "Configuration essentials")).map((r) => r.key);
    expect(keys).toEqual(
      expect.arrayContaining(["OPENAI_API_KEY", "AI_MODEL", "DATA_DIR", "DATABASE_URL", "API_KEY", "PORT"]),
    );
    expect(keys.filter((k) => !configVariables.includes(k))).toEqual([]);
  });

  it("links every docs/ page and ARCHITECTURE.md", () => {
    for (const f of docFiles) expect(readme, `README links ${f}`).toContain(`](${f})`);
    expect(readme).toContain("](ARCHITECTURE.md)");
  });
});

describe("docs/ pages", () => {
  it("include the topic pages", () => {
    for (const f of ["api", "engine", "tools", "assistant", "webhooks", "deployment", "cli"])
      expect(docFiles).toContain(`docs/${f}.md`);
  });

  it.each(docFiles)("%s starts with a title, then a one-line summary that links back to the README", (f) => {
    const [title, blank, summary] = pages.get(f)!.split("\n");
    expect(title).toMatch(/^# \S/);
    expect(blank).toBe("");
    expect(summary).toContain("](../README.md)");
  });
});

/** GitHub's anchors for the headings of a Markdown text. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of text.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = m[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

describe("links between the README and docs/", () => {
  // ARCHITECTURE.md is written separately; its link is checked once the file exists.
  const pending = new Set(["ARCHITECTURE.md"].filter((f) => !existsSync(path.join(root, f))));
  const links = [...pages].flatMap(([file, text]) =>
    [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => ({ file, target: m[1] }))
      .filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target)),
  );

  it("finds the links", () => {
    expect(links.length).toBeGreaterThan(20);
  });

  it("point at files and headings that exist", () => {
    const broken: string[] = [];
    for (const { file, target } of links) {
      const [rel, anchor] = target.split("#");
      const dest = rel ? path.posix.normalize(path.posix.join(path.posix.dirname(file), rel)) : file;
      if (pending.has(dest)) continue;
      const text = pages.get(dest) ?? (existsSync(path.join(root, dest)) ? read(dest) : undefined);
      if (text === undefined) broken.push(`${file}: ${target} (no such file)`);
      else if (anchor && !anchorsOf(text).has(anchor)) broken.push(`${file}: ${target} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });
});
