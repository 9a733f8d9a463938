import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import madge from "madge";
import { CHECKED_OWNERS, ownedBy } from "../support/table-owners.ts";

// The structure rules of ARCHITECTURE.md, checked on the sources: no import cycles, lower layers
// never import higher ones, and each owned table is written only by its owner.

const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCE_DIRS = ["lib", "app", "components"];

function sourceFiles(dir = "", out: string[] = []): string[] {
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = path.join(dir, name);
    if (rel === path.join("lib", "db", "generated")) continue;
    if (statSync(path.join(ROOT, rel)).isDirectory()) sourceFiles(rel, out);
    else if (/\.(ts|tsx|mjs)$/.test(name)) out.push(rel.split(path.sep).join("/"));
  }
  return out;
}
const files = SOURCE_DIRS.flatMap((d) => sourceFiles(d));

let graph: Promise<Awaited<ReturnType<typeof madge>>> | undefined;
const dependencyGraph = () =>
  (graph ??= madge(
    SOURCE_DIRS.map((d) => path.join(ROOT, d)),
    {
      baseDir: ROOT,
      fileExtensions: ["ts", "tsx"],
      tsConfig: path.join(ROOT, "tsconfig.json"),
      excludeRegExp: [/lib\/db\/generated/],
    },
  ));

describe("imports", () => {
  it("form no cycle under lib/, app/ and components/", async () => {
    const g = await dependencyGraph();
    expect(Object.keys(g.obj()).length).toBeGreaterThan(150);
    expect(g.circular()).toEqual([]);
  }, 60_000);

  // Each layer, and the layers it must never import (the higher ones).
  const FORBIDDEN: [string, RegExp][] = [
    [
      "lib/domain/",
      /^lib\/(engine|jobs|webhooks|assistant|http|realtime|tools|extract|net|files|cli|auth|audit)\/|^lib\/(runtime|boot|health|events-bridge)\.ts$/,
    ],
    ["lib/credits/", /^lib\/(domain|engine|jobs|webhooks|assistant|http|realtime|cli)\/|^lib\/(runtime|boot)\.ts$/],
    [
      "lib/db/",
      /^lib\/(domain|engine|jobs|webhooks|assistant|http|realtime|credits|cli|auth)\/|^lib\/(runtime|boot)\.ts$/,
    ],
    ["lib/jobs/", /^lib\/(engine|webhooks|assistant|http|cli)\/|^lib\/(runtime|boot)\.ts$/],
    ["lib/engine/", /^lib\/(webhooks|assistant|http|cli)\/|^lib\/boot\.ts$/],
    ["lib/webhooks/", /^lib\/(engine|assistant|http|cli)\/|^lib\/boot\.ts$/],
    ["lib/tools/", /^lib\/(engine|jobs|webhooks|assistant|http|cli)\/|^lib\/boot\.ts$/],
    ["lib/assistant/", /^lib\/(http|cli)\/|^lib\/boot\.ts$/],
    ["lib/audit/", /^lib\/(domain|engine|jobs|webhooks|assistant|http|realtime|auth|cli)\/|^lib\/(runtime|boot)\.ts$/],
    ["lib/secrets/", /^lib\/(engine|jobs|webhooks|assistant|http|realtime|auth|audit|cli)\/|^lib\/(runtime|boot)\.ts$/],
    ["lib/", /^(app|components)\//],
    ["components/", /^lib\/(db|engine|jobs|webhooks|assistant|cli|runtime)/],
  ];

  it("never go from a lower layer to a higher one", async () => {
    const deps = (await dependencyGraph()).obj();
    const offences: string[] = [];
    for (const [from, targets] of Object.entries(deps)) {
      for (const [layer, forbidden] of FORBIDDEN) {
        if (!from.startsWith(layer)) continue;
        for (const to of targets) if (forbidden.test(to)) offences.push(`${from} -> ${to}`);
      }
    }
    expect(Object.keys(deps).some((f) => f.startsWith("lib/domain/"))).toBe(true);
    expect(offences).toEqual([]);
  }, 60_000);

  // The UI's bundle and the endpoint schemas (loaded by the server's edge, see load-on-use.test.ts)
  // read small modules of constants and schemas, not an aggregate's whole face.
  const READS_INTERNALS = /^(components\/|lib\/http\/schemas\/)/;
  // The tables' own statements that a lower aggregate composes into its statements. Their faces
  // would be a cycle: cells write rows' values and runs' spending, while rows, the run request and
  // run control queue and cancel cells; run control cancels evaluation items, which spend on runs.
  const STATEMENT_MODULES: Record<string, RegExp> = {
    "lib/domain/runs/record.ts": /^lib\/domain\/(cells|evaluations|finds)\//,
    "lib/domain/rows/values.ts": /^lib\/domain\/(cells|columns|runs)\//,
    "lib/domain/rows/settled.ts": /^lib\/domain\/cells\//,
    "lib/domain/history/append.ts": /^lib\/domain\/(cells|review)\//,
    // In the UI's bundle (the filter menu): it must not load the cells' statements.
    "lib/domain/cells/transitions.ts": /^lib\/domain\/query\/operators\.ts$/,
  };
  const aggregateOf = (file: string) => /^lib\/domain\/([^/]+)\//.exec(file)?.[1];
  const AGGREGATES = readdirSync(path.join(ROOT, "lib/domain")).filter((d) =>
    files.includes(`lib/domain/${d}/index.ts`),
  );

  it("reach an aggregate of lib/domain/ from outside it only through its index.ts", async () => {
    expect(AGGREGATES).toEqual(
      expect.arrayContaining([
        "cells",
        "rows",
        "runs",
        "columns",
        "review",
        "views",
        "query",
        "export",
        "evaluations",
        "quality",
      ]),
    );
    const deps = (await dependencyGraph()).obj();
    const offences: string[] = [];
    for (const [from, targets] of Object.entries(deps)) {
      if (READS_INTERNALS.test(from)) continue;
      for (const to of targets) {
        const aggregate = aggregateOf(to);
        if (!aggregate || !AGGREGATES.includes(aggregate) || aggregateOf(from) === aggregate) continue;
        if (to === `lib/domain/${aggregate}/index.ts` || STATEMENT_MODULES[to]?.test(from)) continue;
        offences.push(`${from} -> ${to}`);
      }
    }
    expect(deps["lib/domain/review/actions.ts"]).toContain("lib/domain/rows/index.ts");
    expect(offences).toEqual([]);
  }, 60_000);
});

describe("table owners", () => {
  // Writes by raw SQL or by the Prisma client, in any file outside the owner. The SQL is spelled in
  // capitals throughout, which keeps prose such as "Update Rows" (an endpoint) out of the scan.
  const writes = (table: string, model: string) =>
    new RegExp(
      `\\b(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM|COPY)\\s+${table}\\b|\\.${model}\\.(create|createMany|update|updateMany|upsert|delete|deleteMany)\\(`,
    );
  it.each(CHECKED_OWNERS)("only $owner writes $table", ({ table, model, owner }) => {
    expect(files.length).toBeGreaterThan(150);
    const pattern = writes(table, model);
    const writers = files.filter((f) => pattern.test(readFileSync(path.join(ROOT, f), "utf8")));
    expect(writers.length).toBeGreaterThan(0);
    expect(writers.filter((f) => !ownedBy(owner, f))).toEqual([]);
  });

  it("the scan recognises a write in either form", () => {
    const pattern = writes("cells", "cell");
    expect(pattern.test("await tx.$executeRawUnsafe(`UPDATE cells SET stale = true`)")).toBe(true);
    expect(pattern.test("await tx.cell.updateMany({ where: {} })")).toBe(true);
    expect(pattern.test("SELECT 1 FROM cells")).toBe(false);
    expect(writes("rows", "row").test('UPDATE rows r SET "values" = r."values" - t.cols')).toBe(true);
    expect(writes("rows", "row").test("Update Rows reports failed rows in errors")).toBe(false);
    expect(writes("rows", "row").test('COPY rows (id, sheet_id, "values") FROM STDIN')).toBe(true);
  });
});

describe("source files", () => {
  it("are at most 300 lines", () => {
    const all = [...files, ...sourceFiles("test"), ...sourceFiles("e2e"), ...sourceFiles("bench")];
    expect(all.length).toBeGreaterThan(200);
    const long = all
      .map((f) => [f, readFileSync(path.join(ROOT, f), "utf8").split("\n").length] as const)
      .filter(([, n]) => n > 301);
    expect(long).toEqual([]);
  });
});
