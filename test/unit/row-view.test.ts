import { describe, expect, it } from "vitest";
import { standardRow, standardRowWriter, expandedRow } from "../../lib/domain/rows/view.ts";

// Get Rows writes rows as text without building objects; the text must be exactly the object's JSON.

const columns = [
  { id: "scol_a", name: "Company", isAiEnabled: false },
  { id: "scol_b", name: '"Quoted" \\ name', isAiEnabled: false },
  { id: "scol_c", name: "__proto__", isAiEnabled: false },
  { id: "scol_d", name: "constructor", isAiEnabled: true },
  { id: "scol_e", name: "Ünïcødé 🚀", isAiEnabled: false },
];

describe("standard rows", () => {
  const cases: Record<string, string>[] = [
    {},
    {
      scol_a: "Acme",
      scol_b: 'with "quotes" and \\ and \n newline',
      scol_c: "proto",
      scol_d: "ctor",
      scol_e: "\u2028\u0000\t😀",
    },
    { scol_a: "", scol_unknown: "ignored" },
  ];

  it("has an entry for every column, including names that are Object.prototype members", () => {
    const row = standardRow(columns, "sr_1", { scol_c: "p", scol_d: "c" });
    expect(Object.keys(row.cells)).toEqual(columns.map((c) => c.name));
    expect(JSON.parse(JSON.stringify(row)).cells).toEqual({
      Company: "",
      '"Quoted" \\ name': "",
      ["__proto__"]: "p",
      constructor: "c",
      "Ünïcødé 🚀": "",
    });
    expect(JSON.stringify(row)).toContain('"__proto__":"p"');
  });

  it("the writer's text is exactly JSON.stringify of the row object", () => {
    const write = standardRowWriter(columns);
    for (const values of cases)
      expect(write('sr_x"y', values)).toBe(JSON.stringify(standardRow(columns, 'sr_x"y', values)));
    expect(standardRowWriter([])("sr_1", {})).toBe('{"id":"sr_1","cells":{}}');
  });

  it("expanded rows keep prototype-named columns too", () => {
    const row = expandedRow(columns, "sr_1", { scol_c: "p" }, new Map());
    expect(JSON.stringify(row)).toContain('"__proto__":{"value":"p"}');
    expect(JSON.parse(JSON.stringify(row)).cells.constructor).toEqual({
      value: "",
      status: "idle",
      needsReview: false,
      verified: false,
    });
  });
});
