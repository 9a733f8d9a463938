import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { COMPANIES } from "./fixtures.ts";
import { EMITS_NOTHING, runScenario } from "./scenario.ts";

// Beyond the spec: Add Rows and Update Rows take expand=true and answer with the rows expanded as
// the write left them (what the grid shows at once, without guessing a status). Without it the
// answer is the spec's standard form, unchanged.

let app: TestApp;
let f: TestBase;

beforeAll(async () => {
  app = await createTestApp();
  f = await createBase(app, COMPANIES);
});
afterAll(() => app.close());

const add = (query = "") => `/api/v1/bases/${f.baseId}/add-rows${query}`;
const update = (query = "") => `/api/v1/bases/${f.baseId}/update-rows${query}`;
const getRow = async (id: string) => (await app.api("GET", `/api/v1/bases/${f.baseId}/rows/${id}?expand=true`)).body;

const noMetadata = { sources: null, additionalDetails: null, confidenceScore: null };
const pending = { value: "", status: "pending", metadata: noMetadata, needsReview: false, verified: false };
const supplied = (value: string) => ({
  value,
  status: "done",
  metadata: { sources: null, additionalDetails: "Supplied by the user.", confidenceScore: null, suppliedByUser: true },
  needsReview: false,
  verified: false,
});

describe("Add Rows with expand=true", () => {
  it("answers each row expanded: an AI cell left empty pending, one supplied done with its value", async () => {
    const res = await app.api("POST", add("?expand=true"), {
      body: {
        rows: [{ cells: { Company: "Acme", Website: "acme.com" } }, { cells: { Company: "Globex", Summary: "Given" } }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.runId).toMatch(/^run_/);
    const [acme, globex] = res.body.rows;
    expect(acme).toEqual({
      id: expect.stringMatching(/^sr_/),
      cells: {
        Company: { value: "Acme" },
        Website: { value: "https://acme.com" },
        Employees: { value: "" },
        Summary: pending,
      },
      processing: true,
    });
    expect(globex).toEqual({
      id: expect.stringMatching(/^sr_/),
      cells: {
        Company: { value: "Globex" },
        Website: { value: "" },
        Employees: { value: "" },
        Summary: supplied("Given"),
      },
      processing: false,
    });
    // The answer is what a read right after the write shows (no engine runs in this suite).
    expect(await getRow(acme.id)).toEqual(acme);
    expect(await getRow(globex.id)).toEqual(globex);
  });

  it("expands the rows of an upsert too, in input order", async () => {
    const first = await app.api("POST", add("?expand=1"), {
      body: { rows: [{ cells: { Company: "Merge Co", Summary: "Kept" } }], mergeOn: ["Company"] },
    });
    const again = await app.api("POST", add("?expand=1"), {
      body: {
        rows: [{ cells: { Company: "New Co" } }, { cells: { Company: "Merge Co", Employees: 5 } }],
        mergeOn: ["Company"],
      },
    });
    expect(again.status).toBe(200);
    expect(again.body.rows.map((r: any) => [r.cells.Company.value, r.cells.Summary.status])).toEqual([
      ["New Co", "pending"],
      ["Merge Co", "done"],
    ]);
    expect(again.body.rows[1]).toEqual({
      ...first.body.rows[0],
      cells: { ...first.body.rows[0].cells, Employees: { value: "5" } },
    });
    expect(again.body.updatedRowIds).toEqual([first.body.rows[0].id]);
  });

  it("leaves the default answer in the standard form, byte for byte, and expand=false alike", async () => {
    for (const query of ["", "?expand=false", "?expand=0"]) {
      const res = await app.api("POST", add(query), { body: { rows: [{ cells: { Company: "Plain" } }] } });
      expect(res.status).toBe(200);
      const [row] = res.body.rows;
      expect(res.text).toBe(
        `{"rows":[{"id":"${row.id}","cells":{"Company":"Plain","Website":"","Employees":"","Summary":""}}],"runId":"${res.body.runId}"}`,
      );
    }
  });

  it("refuses an expand that is not a boolean", async () => {
    await runScenario(app, {
      name: "",
      method: "POST",
      path: add("?expand=maybe"),
      body: { rows: [{ cells: { Company: "Never" } }] },
      status: 400,
      code: "invalid_query",
      ...EMITS_NOTHING,
    });
  });
});

describe("Update Rows with expand=true", () => {
  let id: string;
  beforeAll(async () => {
    const res = await app.api("POST", add(), { body: { rows: [{ cells: { Company: "Initech", Summary: "Mine" } }] } });
    id = res.body.rows[0].id;
  });

  it('answers the rows expanded: "" re-runs an AI cell (pending), a value is kept as supplied (done)', async () => {
    const cleared = await app.api("POST", update("?expand=true"), {
      body: {
        rows: [
          { id, cells: { Summary: "" } },
          { id: "sr_missing", cells: { Company: "x" } },
        ],
      },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.rows).toEqual([
      {
        id,
        cells: { Company: { value: "Initech" }, Website: { value: "" }, Employees: { value: "" }, Summary: pending },
        processing: true,
      },
    ]);
    expect(cleared.body.errors.map((e: any) => [e.rowId, e.code])).toEqual([["sr_missing", "row_not_found"]]);
    expect(await getRow(id)).toEqual(cleared.body.rows[0]);

    const written = await app.api("POST", update("?expand=true"), {
      body: { rows: [{ id, cells: { Summary: "Ours" } }] },
    });
    expect(written.body.rows[0].cells.Summary).toEqual(supplied("Ours"));
    expect(written.body.rows[0].processing).toBe(false);
    expect(await getRow(id)).toEqual(written.body.rows[0]);
  });

  it("leaves the default answer in the standard form, byte for byte", async () => {
    const res = await app.api("POST", update(), { body: { rows: [{ id, cells: { Employees: "12" } }] } });
    expect(res.text).toBe(
      `{"rows":[{"id":"${id}","cells":{"Company":"Initech","Website":"","Employees":"12","Summary":"Ours"}}],"errors":[],"runId":null}`,
    );
  });
});
