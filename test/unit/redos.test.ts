import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { checkSync } from "recheck";

// Every regular expression in the product code is checked for catastrophic backtracking, so no
// input (a cell value, a fetched page, a header) can stall the event loop on a pattern. The
// literals are found by the TypeScript parser, not by a pattern of our own.

const ROOT = path.resolve(import.meta.dirname, "../..");

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = path.join(dir, name);
    if (rel === path.join("lib", "db", "generated")) continue;
    if (statSync(path.join(ROOT, rel)).isDirectory()) sources(rel, out);
    else if (/\.tsx?$/.test(name)) out.push(rel);
  }
  return out;
}

function regexLiterals(file: string): { at: string; source: string; flags: string }[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const sf = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: { at: string; source: string; flags: string }[] = [];
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText(sf);
      const end = literal.lastIndexOf("/");
      found.push({
        at: `${file}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`,
        source: literal.slice(1, end),
        flags: literal.slice(end + 1),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

const literals = ["lib", "app", "components"].flatMap((d) => sources(d)).flatMap(regexLiterals);

// Verdicts by counted steps only, never by the clock: recheck's defaults stop an attack after a
// time (1 s), so on a busy machine a slow but linear match read as "vulnerable". Without any time
// limit the fuzzer (which it picks for bounded repeats and lookaheads) decides by the characters
// its matcher reads, from a fixed seed, and gives the same answer on any machine.
const DETERMINISTIC = {
  timeout: null,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
  recallTimeout: -1,
  randomSeed: 0,
} as const;

describe("regular expressions", () => {
  it("are found in the sources", () => {
    expect(literals.length).toBeGreaterThan(40);
    expect(literals.some((l) => l.at.startsWith("lib/domain/column-types/number.ts"))).toBe(true);
  });

  it("are all linear-time (recheck finds no ReDoS)", () => {
    const unsafe = literals
      .map((l) => ({ ...l, result: checkSync(l.source, l.flags, DETERMINISTIC) }))
      .filter((l) => l.result.status !== "safe")
      .map(
        (l) =>
          `${l.at} /${l.source}/${l.flags}: ${l.result.status}${l.result.status === "vulnerable" ? ` (${l.result.complexity.type})` : ""}`,
      );
    expect(unsafe).toEqual([]);
  }, 300_000);

  it("the checker does catch a backtracking pattern, by automaton and by fuzzing", () => {
    expect(checkSync("^[+-]?(\\d+\\.?\\d*|\\.\\d+)$", "", DETERMINISTIC).status).toBe("vulnerable");
    // A lookahead sends it to the fuzzer, whose verdict has no clock here either.
    expect(checkSync("^(?=.{1,200}$)(a+)+b$", "", DETERMINISTIC)).toMatchObject({
      status: "vulnerable",
      checker: "fuzz",
    });
  });
});
