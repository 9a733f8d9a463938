import { describe, expect, it } from "vitest";
import { standardRow, expandedRow } from "../../lib/domain/rows/view.ts";

// Rows as the API shows them: an entry for every column, whatever the column is named.

const columns = [
  { id: "scol_a", name: "Company", isAiEnabled: false },
  { id: "scol_b", name: '"Quoted" \\ name', isAiEnabled: false },
  { id: "scol_c", name: "__proto__", isAiEnabled: false },
  { id: "scol_d", name: "constructor", isAiEnabled: true },
  { id: "scol_e", name: "Ünïcødé 🚀", isAiEnabled: false },
];

describe("standard rows", () => {
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
