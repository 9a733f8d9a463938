import { describe, expect, it } from "vitest";
import { exportColumns, type ExportRow } from "../../lib/domain/export/columns.ts";
import { csvCells } from "../../lib/domain/export/csv.ts";
import { guardFormula } from "../../lib/domain/export/guard.ts";
import { attachmentDisposition } from "../../lib/http/download.ts";
import { exportFileName } from "../../lib/domain/export/export.ts";
import type { ColumnRecord } from "../../lib/domain/column-model.ts";

// The pieces of an export that need no database: column choice, metadata cells, the guard, names.

const column = (id: string, name: string, type: string, isAiEnabled = false) =>
  ({ id, name, type, isAiEnabled, nameKey: name.toLowerCase() }) as unknown as ColumnRecord;
const COLUMNS = [column("col_a", "Company", "short-text"), column("col_b", "Size", "number", true)];

const row: ExportRow = {
  id: "sr_1",
  values: { col_a: "@Acme", col_b: "-12" },
  states: new Map([
    [
      "col_b",
      {
        status: "done",
        errorCode: null,
        errorMessage: null,
        stale: false,
        verified: false,
        metadata: { sources: ["https://a.example/1", "=b.example"], additionalDetails: null, confidenceScore: 0.75 },
      },
    ],
  ]),
};

describe("export columns", () => {
  it("writes sources one per line in one cell, guarded, beside the confidence, status and verified", () => {
    const cols = exportColumns(COLUMNS, { metadata: true, ids: true });
    expect(cols.map((c) => c.header)).toEqual([
      "Row ID",
      "Company",
      "Size",
      "Size (confidence)",
      "Size (sources)",
      "Size (status)",
      "Size (verified)",
    ]);
    expect(csvCells(cols, false)(row)).toEqual([
      "sr_1",
      "'@Acme",
      "-12",
      "0.75",
      "https://a.example/1\n=b.example",
      "done",
      "false",
    ]);
    expect(csvCells(cols, true)(row)[1]).toBe("@Acme");
  });

  it("shows idle for an AI cell with no state yet", () => {
    const cols = exportColumns(COLUMNS, { metadata: true, ids: false });
    expect(csvCells(cols, false)({ id: "sr_2", values: {}, states: new Map() })).toEqual([
      "",
      "",
      "",
      "",
      "idle",
      "false",
    ]);
  });

  it("hides a view's hidden columns unless columns= names them", () => {
    expect(
      exportColumns(COLUMNS, { hiddenColumnIds: ["col_a"], metadata: false, ids: false }).map((c) => c.header),
    ).toEqual(["Size"]);
    expect(
      exportColumns(COLUMNS, { columns: "Company", hiddenColumnIds: ["col_a"], metadata: false, ids: false }).map(
        (c) => c.header,
      ),
    ).toEqual(["Company"]);
  });
});

describe("the formula guard", () => {
  it.each(["=1", "+1", "-1", "@x", "\tx", "\rx"])("quotes %j", (text) => expect(guardFormula(text)).toBe(`'${text}`));
  it.each(["1", "a=b", " =x", "", "'=x"])("leaves %j", (text) => expect(guardFormula(text)).toBe(text));
});

describe("file names", () => {
  it("come from the base name, without path separators or control characters", () => {
    expect(exportFileName("Q3/Q4 leads\u0000", "csv")).toBe("Q3 Q4 leads.csv");
    expect(exportFileName("   ", "xlsx")).toBe("export.xlsx");
  });

  it("travel as an ASCII fallback and RFC 5987 filename*", () => {
    expect(attachmentDisposition('Zoë "best" (1).csv')).toBe(
      `attachment; filename="Zo_ _best_ (1).csv"; filename*=UTF-8''Zo%C3%AB%20%22best%22%20%281%29.csv`,
    );
  });
});
