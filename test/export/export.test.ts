import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows } from "../api/fixtures.ts";
import { BOM, csvRows, download, jsonlRows, xlsxRows } from "./helpers.ts";

// Export in each format, parsed back with real readers; the formula guard; options; refusals.

let app: TestApp;
let base: TestBase;
let ids: string[];

const HEADERS = ["Company", "Employees", "Founded", "Public", "Website", "Notes"];
const ROWS: Record<string, string>[] = [
  {
    Company: "Acme, Inc.",
    Employees: "42",
    Founded: "1999-03-04",
    Public: "true",
    Website: "https://acme.example",
    Notes: 'He said "hi"\nthen left',
  },
  {
    Company: "Zoë Café",
    Employees: "-5",
    Founded: "2020-01-31T10:20:30.000Z",
    Public: "false",
    Website: "",
    Notes: "=SUM(A1:A2)",
  },
  { Company: "+Plus", Employees: "1234.5", Founded: "", Public: "", Website: "", Notes: "-minus" },
  { Company: "@At", Employees: "", Founded: "", Public: "", Website: "", Notes: "\tTab" },
  { Company: "\rCR", Employees: "7", Founded: "", Public: "", Website: "", Notes: "plain" },
  { Company: "Initech", Employees: "", Founded: "", Public: "", Website: "", Notes: "two\nlines" },
];

beforeAll(async () => {
  app = await createTestApp();
  base = await createBase(app, {
    name: "Leads — Zürich",
    columns: [
      { name: "Company", type: "short-text", isPrimary: true },
      { name: "Employees", type: "number" },
      { name: "Founded", type: "date" },
      { name: "Public", type: "checkbox" },
      { name: "Website", type: "url" },
      { name: "Notes", type: "long-text" },
    ],
  });
  ids = (
    await addRows(
      app,
      base.baseId,
      ROWS.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== ""))),
    )
  ).map((r) => r.id);
}, 120_000);
afterAll(() => app.close());

const guarded = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

describe("CSV", () => {
  it("is RFC 4180 with a BOM, CRLF and a header row, named after the base", async () => {
    const res = await download(app, base.baseId, "format=csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const disposition = res.headers.get("content-disposition")!;
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent("Leads — Zürich.csv")}`);
    expect(disposition).toMatch(/^attachment; filename="Leads _ Z_rich\.csv"; /);
    const text = res.bytes.toString("utf8");
    expect(text.startsWith(`${BOM}Company,Employees,Founded,Public,Website,Notes\r\n`)).toBe(true);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text).toContain('"Acme, Inc."');
    expect(text).toContain('"He said ""hi""\nthen left"');
    expect(text).toContain('Initech,,,,,"two\nlines"\r\n');
    const [header, ...records] = csvRows(res.bytes);
    expect(header).toEqual(HEADERS);
    expect(records).toEqual(ROWS.map((r) => HEADERS.map((h) => (h === "Employees" ? r[h] : guarded(r[h])))));
  });

  it("guards each formula start in text cells, never in number columns, and not at all with raw=true", async () => {
    const records = csvRows((await download(app, base.baseId, "format=csv")).bytes).slice(1);
    expect(records.map((r) => r[0])).toEqual(["Acme, Inc.", "Zoë Café", "'+Plus", "'@At", "'\rCR", "Initech"]);
    expect(records.map((r) => r[5])).toEqual([
      'He said "hi"\nthen left',
      "'=SUM(A1:A2)",
      "'-minus",
      "'\tTab",
      "plain",
      "two\nlines",
    ]);
    expect(records[1][1]).toBe("-5");
    const raw = csvRows((await download(app, base.baseId, "format=csv&raw=true")).bytes).slice(1);
    expect(raw).toEqual(ROWS.map((r) => HEADERS.map((h) => r[h])));
  });

  it("leaves the BOM out with bom=false", async () => {
    const res = await download(app, base.baseId, "format=csv&bom=false");
    expect(res.bytes.subarray(0, 7).toString()).toBe("Company");
  });

  it("adds the row id first with ids=true, and chooses and orders columns by name or id", async () => {
    const withIds = csvRows((await download(app, base.baseId, "format=csv&ids=true")).bytes);
    expect(withIds[0]).toEqual(["Row ID", ...HEADERS]);
    expect(withIds.slice(1).map((r) => r[0])).toEqual(ids);
    const chosen = csvRows(
      (await download(app, base.baseId, `format=csv&columns=${encodeURIComponent(`Notes,${base.col.Company}`)}`)).bytes,
    );
    expect(chosen[0]).toEqual(["Notes", "Company"]);
    expect(chosen[1]).toEqual(['He said "hi"\nthen left', "Acme, Inc."]);
    const json = csvRows(
      (await download(app, base.baseId, `format=csv&columns=${encodeURIComponent('["employees"]')}`)).bytes,
    );
    expect(json.map((r) => r[0])).toEqual(["Employees", "42", "-5", "1234.5", "", "7", ""]);
  });

  it("takes filter, sort and search as Get Rows does", async () => {
    const filter = encodeURIComponent(JSON.stringify({ column: "Employees", op: "gt", value: 0 }));
    const rows = csvRows(
      (await download(app, base.baseId, `format=csv&filter=${filter}&sort=-Employees&columns=Company`)).bytes,
    );
    expect(rows.map((r) => r[0])).toEqual(["Company", "'+Plus", "Acme, Inc.", "'\rCR"]);
    const search = csvRows((await download(app, base.baseId, "format=csv&search=caf&columns=Company")).bytes);
    expect(search.map((r) => r[0])).toEqual(["Company", "Zoë Café"]);
  });

  it("exports through a view: its filter, sort and visible columns", async () => {
    const view = await app.api("POST", `/api/v1/bases/${base.baseId}/views`, {
      body: {
        name: "Numbered",
        filter: { column: "Employees", op: "isNotEmpty" },
        sort: [{ column: "Employees", direction: "asc" }],
        hiddenColumnIds: [base.col.Notes, base.col.Website],
      },
    });
    expect(view.status, view.text).toBe(201);
    const rows = csvRows((await download(app, base.baseId, `format=csv&viewId=${view.body.id}`)).bytes);
    expect(rows[0]).toEqual(["Company", "Employees", "Founded", "Public"]);
    expect(rows.slice(1).map((r) => r[1])).toEqual(["-5", "7", "42", "1234.5"]);
  });
});

describe("XLSX", () => {
  it("has typed cells, a frozen header and column widths", async () => {
    const res = await download(app, base.baseId, "format=xlsx");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(res.headers.get("content-disposition")).toContain(
      `filename*=UTF-8''${encodeURIComponent("Leads — Zürich.xlsx")}`,
    );
    const { rows, sheet } = await xlsxRows(res.bytes);
    expect(sheet.name).toBe("Leads — Zürich");
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet.getRow(1).font?.bold).toBe(true);
    for (let i = 1; i <= HEADERS.length; i++) expect(sheet.getColumn(i).width).toBeGreaterThanOrEqual(10);
    expect(rows[0]).toEqual(HEADERS);
    expect(rows[1]).toEqual([
      "Acme, Inc.",
      42,
      new Date(Date.UTC(1999, 2, 4)),
      true,
      "https://acme.example",
      'He said "hi"\nthen left',
    ]);
    expect(rows[2]).toEqual(["Zoë Café", -5, new Date("2020-01-31T10:20:30.000Z"), false, null, "'=SUM(A1:A2)"]);
    expect(rows[3]).toEqual(["'+Plus", 1234.5, null, null, null, "'-minus"]);
    // XML reads a lone CR as a line feed: the guard's quote is what matters here.
    expect(rows.slice(4).map((r) => [r[0], r[5]])).toEqual([
      ["'@At", "'\tTab"],
      ["'\nCR", "plain"],
      ["Initech", "two\nlines"],
    ]);
    expect(sheet.getCell("C2").numFmt).toBe("yyyy-mm-dd");
    expect(sheet.getCell("C3").numFmt).toBe("yyyy-mm-dd hh:mm:ss");
  });

  it("leaves text as is with raw=true", async () => {
    const { rows } = await xlsxRows(
      (await download(app, base.baseId, "format=xlsx&raw=true&columns=Company,Notes")).bytes,
    );
    expect(rows.slice(1)).toEqual(ROWS.map((r) => [r.Company.replace("\r", "\n"), r.Notes]));
  });
});

describe("JSON Lines", () => {
  it("is one object per row, the stored text, no guard", async () => {
    const res = await download(app, base.baseId, "format=jsonl&ids=true");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(jsonlRows(res.bytes)).toEqual(ROWS.map((r, i) => ({ "Row ID": ids[i], ...r })));
  });
});

describe("refusals", () => {
  it.each([
    ["format=pdf", 400, "invalid_query"],
    ["", 400, "invalid_query"],
    ["format=csv&columns=Nope", 400, "unknown_column"],
    ["format=csv&columns=Company,company", 400, "invalid_query"],
    ["format=csv&columns=%5B1%5D", 400, "invalid_query"],
    ["format=csv&filter=%7Bnot-json", 400, "invalid_filter"],
    [
      `format=csv&filter=${encodeURIComponent('{"column":"Employees","op":"contains","value":"x"}')}`,
      400,
      "invalid_filter",
    ],
    ["format=csv&sort=Nope", 400, "unknown_column"],
    ["format=csv&metadata=maybe", 400, "invalid_query"],
    ["format=csv&viewId=view_missing", 404, "view_not_found"],
  ])("%s → %d %s", async (query, status, code) => {
    const res = await download(app, base.baseId, query);
    expect(res.status).toBe(status);
    expect(res.error?.code).toBe(code);
  });

  it("answers 404 for another workspace's base, and for none", async () => {
    expect((await download(app, base.baseId, "format=csv", app.keyB)).error?.code).toBe("base_not_found");
    expect((await download(app, "Nope1234", "format=csv")).status).toBe(404);
  });
});
