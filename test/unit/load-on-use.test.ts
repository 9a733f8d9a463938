import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Heavy packages load when first used, not with the server: an idle server's memory (bench:server)
// is what its boot and its most used routes import. This follows the static imports (type-only
// ones are erased; `import()` is how a module loads on use) and names what each entry reaches.

const ROOT = path.resolve(import.meta.dirname, "../..");
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^;"'`]*?\sfrom\s+)?["']([^"']+)["']/gm;

function resolveSource(from: string, spec: string): string | null {
  const base = spec.startsWith("@/") ? path.join(ROOT, spec.slice(2)) : path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** The packages an entry loads with it, each with the chain of files that imports it. */
function packagesLoadedBy(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, spec] of readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) {
      if (spec.startsWith(".") || spec.startsWith("@/")) {
        const next = resolveSource(file, spec);
        if (next) visit(next, [...chain, path.relative(ROOT, next)]);
      } else if (!spec.startsWith("node:")) {
        const name = spec
          .split("/")
          .slice(0, spec.startsWith("@") ? 2 : 1)
          .join("/");
        if (!packages.has(name)) packages.set(name, chain);
      }
    }
  };
  visit(path.join(ROOT, entry), [entry]);
  return packages;
}

const HEAVY = [
  "ai",
  "@ai-sdk/openai",
  "@ai-sdk/anthropic",
  "pg-boss",
  "exceljs",
  "disposable-email-domains",
  "linkedom",
  "unpdf",
  "mammoth",
];

describe("heavy packages", () => {
  it.each([
    // What every server runs at start.
    "lib/boot.ts",
    // What the grid reads all day.
    "app/api/v1/bases/[baseId]/rows/route.ts",
    "app/api/v1/bases/[baseId]/rows/query/route.ts",
    "app/api/v1/bases/[baseId]/rows/[rowId]/route.ts",
  ])("are not loaded with %s", (entry) => {
    const loaded = packagesLoadedBy(entry);
    expect(loaded.has("@prisma/client")).toBe(true);
    const heavy = HEAVY.filter((p) => loaded.has(p)).map((p) => `${p} via ${loaded.get(p)!.join(" > ")}`);
    expect(heavy).toEqual([]);
  });

  it("the server's entry, which runs beside the app's bundle, loads only what its edge needs", () => {
    // Whatever it imported would be loaded twice: once here, once inside the built app.
    expect([...packagesLoadedBy("lib/cli/start.ts").keys()].sort()).toEqual(["ipaddr.js", "next", "zod"]);
  });

  it("the scan sees what the assistant's route loads", () => {
    const loaded = packagesLoadedBy("app/api/v1/bases/ai-configure-base/route.ts");
    expect(loaded.has("ai")).toBe(true);
  });
});
