import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { CHECKED_OWNERS } from "../support/table-owners.ts";

// ARCHITECTURE.md's facts that can drift from the code, held to it: its table of tables against
// prisma/schema.prisma, its "(checked)" owners against the owners test's list, and every path it
// names against the tree. The table of tables is the one whose header starts "| Table | Owner |";
// each row names one SQL table in backticks, then its owner's path in backticks, optionally
// followed by "(checked)".

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

interface DocTable {
  table: string;
  owner: string;
  checked: boolean;
}

/** The rows of the doc's table of tables; throws on a row that does not follow the convention. */
function docTables(doc: string): DocTable[] {
  const lines = doc.split("\n");
  const start = lines.findIndex((l) => /^\|\s*Table\s*\|\s*Owner\s*\|/.test(l));
  if (start < 0) throw new Error('No table whose header starts "| Table | Owner |".');
  const rows: DocTable[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    const table = /^`([a-z_]+)`$/.exec(cells[0] ?? "");
    const owner = /^`([^`]+)`( \(checked\))?$/.exec(cells[1] ?? "");
    if (!table || !owner) throw new Error(`A row of the table of tables breaks the convention: ${line}`);
    rows.push({ table: table[1], owner: owner[1], checked: owner[2] !== undefined });
  }
  return rows;
}

/** Every model of the schema: its SQL table (`@@map`, else the model's name) and its client name. */
function schemaTables(schema: string): { table: string; model: string }[] {
  return [...schema.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)].map(([, name, body]) => ({
    table: /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? name,
    model: name[0].toLowerCase() + name.slice(1),
  }));
}

/** Table rows outside a table: a run of "|" lines must follow a blank line and start with a header and its rule. */
function strandedRows(doc: string): string[] {
  const lines = doc.split("\n");
  const stranded: string[] = [];
  lines.forEach((line, i) => {
    const opens = line.startsWith("|") && !lines[i - 1]?.startsWith("|");
    if (opens && ((lines[i - 1] ?? "") !== "" || !/^\|[\s\-:|]+\|$/.test(lines[i + 1] ?? ""))) stranded.push(line);
  });
  return stranded;
}

/** Repository paths the doc names in backticks (placeholders such as `<group>` left out). */
function docPaths(doc: string): string[] {
  const named = [...doc.matchAll(/`((?:lib|app|components|test|prisma|docs|e2e|bench)\/[^`\s]*)`/g)].map((m) => m[1]);
  return [...new Set(named)].filter((p) => !/[<>…*]/.test(p));
}

const doc = read("ARCHITECTURE.md");
const schema = schemaTables(read("prisma/schema.prisma"));

describe("ARCHITECTURE.md", () => {
  it("lists every table of the schema once, and no other", () => {
    const listed = docTables(doc).map((r) => r.table);
    expect(schema.length).toBeGreaterThan(20);
    expect(listed.filter((t, i) => listed.indexOf(t) !== i)).toEqual([]);
    expect([...listed].sort()).toEqual(schema.map((s) => s.table).sort());
  });

  it('marks "(checked)" exactly the owners the owners test enforces', () => {
    const checked = docTables(doc)
      .filter((r) => r.checked)
      .map(({ table, owner }) => ({ table, owner }));
    const sortByTable = <T extends { table: string }>(list: T[]) =>
      [...list].sort((a, b) => a.table.localeCompare(b.table));
    expect(sortByTable(checked)).toEqual(sortByTable(CHECKED_OWNERS.map(({ table, owner }) => ({ table, owner }))));
  });

  it("the owners test scans the schema's own client name for each checked table", () => {
    for (const { table, model } of CHECKED_OWNERS) expect(schema).toContainEqual({ table, model });
  });

  it("has no table row stranded outside a table", () => {
    expect(strandedRows(doc)).toEqual([]);
  });

  it("names only paths that exist", () => {
    const paths = docPaths(doc);
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.filter((p) => !existsSync(path.join(ROOT, p)))).toEqual([]);
  });

  it("stays a map a newcomer reads through: at most 200 lines", () => {
    expect(doc.trimEnd().split("\n").length).toBeLessThanOrEqual(200);
  });
});

describe("the doc's parsers", () => {
  const sample = [
    "| Table | Owner | Holds |",
    "|---|---|---|",
    "| `rows` | `lib/domain/rows/` (checked) | Row values |",
    "| `views` | `lib/domain/views/` | Saved views |",
    "",
    "| `stray` | `lib/stray.ts` | A row stranded outside its table |",
  ].join("\n");

  it("read a table's rows up to its end, and a row outside it not at all", () => {
    expect(docTables(sample)).toEqual([
      { table: "rows", owner: "lib/domain/rows/", checked: true },
      { table: "views", owner: "lib/domain/views/", checked: false },
    ]);
  });

  it("find a row stranded after a paragraph", () => {
    expect(strandedRows("Some prose.\n| `x` | `lib/x.ts` | |\n")).toEqual(["| `x` | `lib/x.ts` | |"]);
    expect(strandedRows(sample)).toEqual(["| `stray` | `lib/stray.ts` | A row stranded outside its table |"]);
  });

  it("refuse a row with two tables in one cell, or no owner path", () => {
    const header = "| Table | Owner | Holds |\n|---|---|---|\n";
    expect(() => docTables(`${header}| \`bases\`, \`sheets\` | \`lib/domain/bases.ts\` | x |`)).toThrow(/convention/);
    expect(() => docTables(`${header}| \`bases\` | the bases module | x |`)).toThrow(/convention/);
  });

  it("read a model's table from @@map, or its name when unmapped", () => {
    const text = 'model StoredFile {\n  id String @id\n\n  @@map("files")\n}\nmodel Plain {\n  id String @id\n}\n';
    expect(schemaTables(text)).toEqual([
      { table: "files", model: "storedFile" },
      { table: "Plain", model: "plain" },
    ]);
  });
});
