import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows } from "../api/fixtures.ts";
import { prepareRowsQuery } from "../../lib/domain/rows/query.ts";
import { exportColumns } from "../../lib/domain/export/columns.ts";
import { csvChunks } from "../../lib/domain/export/csv.ts";
import { csvLineChunks } from "../../lib/domain/export/csv-lines.ts";
import { exportPages } from "../../lib/domain/export/pages.ts";
import { jsonlChunks, jsonlLineChunks } from "../../lib/domain/export/jsonl.ts";

// CSV and JSON Lines formatted by the database must be byte for byte what the JavaScript writers
// make of the same rows: random text full of quotes, commas, CR, LF, tabs, backslashes, control
// characters, formula starts and non-ASCII, with and without the formula guard, under column
// names that need escaping in JSON and in SQL.

let app: TestApp;
let base: TestBase;
const SPECIAL = [
  '"',
  ",",
  "\r",
  "\n",
  "\r\n",
  "\t",
  "=",
  "+",
  "-",
  "@",
  "'",
  " ",
  "\\",
  "\u0001",
  "\u001f",
  "\u007f",
  "\u2028",
  "é",
  "日本",
  "😀",
  "a",
  "1",
];
const NOTES = `Notes "quoted" 'single' \\ back`;
const text = fc
  .array(fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ maxLength: 3 })), { maxLength: 8 })
  .map((parts) => parts.join("").replace(/\u0000/g, ""));

beforeAll(async () => {
  app = await createTestApp();
  base = await createBase(app, {
    columns: [
      { name: "Company", isPrimary: true },
      { name: NOTES, type: "long-text" },
      { name: "Employees", type: "number" },
    ],
  });
  const rows = fc.sample(fc.record({ Company: text, Notes: text }), { numRuns: 300, seed: 20261125 });
  await addRows(
    app,
    base.baseId,
    rows.map((r, i) => ({ Company: r.Company, [NOTES]: r.Notes, Employees: String(i - 150) })),
  );
}, 120_000);
afterAll(() => app.close());

async function both(raw: boolean, ids: boolean) {
  const collect = async (chunks: AsyncIterable<string | Uint8Array>) => {
    let out = "";
    for await (const c of chunks) out += typeof c === "string" ? c : Buffer.from(c).toString("utf8");
    return out;
  };
  const workspaceId = (await app.rt.db.prisma.base.findUniqueOrThrow({ where: { id: base.baseId } })).workspaceId;
  const query = await prepareRowsQuery(app.rt.db.prisma, workspaceId, base.baseId, {
    sort: [{ column: "Employees", direction: "desc" }],
  });
  const columns = exportColumns(query.columns, { metadata: false, ids });
  const options = { bom: true, raw };
  return {
    sql: await collect(csvLineChunks(query, columns, options, 11)),
    js: await collect(csvChunks(columns, exportPages(query, false, 7), options)),
    jsonlSql: await collect(jsonlLineChunks(query, columns, 13)),
    jsonlJs: await collect(jsonlChunks(columns, exportPages(query, false, 7))),
  };
}

describe("CSV lines formatted in SQL", () => {
  for (const raw of [false, true]) {
    it(`match the CSV writer's output${raw ? " (raw)" : ""}, over pages`, async () => {
      const { sql, js } = await both(raw, !raw);
      expect(sql.split("\r\n").length).toBeGreaterThan(300);
      expect(sql).toBe(js);
    });
  }
});

describe("JSON Lines formatted in SQL", () => {
  it("match JSON.stringify's lines, over pages, and parse back", async () => {
    const { jsonlSql, jsonlJs } = await both(false, true);
    expect(jsonlSql).toBe(jsonlJs);
    const lines = jsonlSql
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(300);
    expect(Object.keys(lines[0])).toEqual(["Row ID", "Company", NOTES, "Employees"]);
  });
});
