import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { getRows } from "./fixtures.ts";

// Add Rows with mergeOn: an upsert on a natural key, single or compound.

let app: TestApp;
let f: TestBase;

beforeAll(async () => {
  app = await createTestApp();
  f = await createBase(app, {
    name: "Leads",
    columns: [
      { name: "Email", type: "email", isPrimary: true },
      { name: "Company", type: "short-text" },
      { name: "Country", type: "short-text" },
      { name: "Score", type: "number" },
      { name: "Note", type: "long-text", isAiEnabled: true, inputColumns: ["Company"], instructions: "Describe." },
    ],
  });
});
afterAll(() => app.close());

const add = (body: unknown, baseId = f.baseId, key = app.keyA) =>
  app.api("POST", `/api/v1/bases/${baseId}/add-rows`, { key, body });
const rows = (...cells: Record<string, unknown>[]) => cells.map((c) => ({ cells: c }));

describe("add-rows with mergeOn", () => {
  it("adds new keys, updates existing ones, and keeps rows in input order", async () => {
    const first = await add({
      rows: rows({ Email: "ann@x.com", Company: "Acme", Score: 1 }, { Email: "bob@x.com", Company: "Bolt" }),
    });
    expect(first.status, first.text).toBe(200);
    const [ann, bob] = first.body.rows;
    const res = await add({
      mergeOn: ["email"],
      rows: rows({ Email: "carl@x.com" }, { Email: "ann@X.COM", Score: 5 }, { Email: "bob@X.com", Country: "FR" }),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.rows.map((r: any) => r.id)).toEqual([expect.stringMatching(/^sr_/), ann.id, bob.id]);
    expect(res.body.createdRowIds).toEqual([res.body.rows[0].id]);
    expect(res.body.updatedRowIds).toEqual([ann.id, bob.id]);
    // Supplied cells only: Ann keeps her company, Bob gains a country.
    expect(res.body.rows[1].cells).toMatchObject({ Company: "Acme", Score: "5" });
    expect(res.body.rows[2].cells).toMatchObject({ Company: "Bolt", Country: "FR" });
    expect((await getRows(app, f.baseId)).length).toBe(3);
  });

  it("a key repeated in the request updates the row its earlier line made", async () => {
    const res = await add({
      mergeOn: ["Email"],
      rows: rows({ Email: "dup@x.com", Company: "One" }, { Email: "dup@x.com", Score: 7 }),
    });
    expect(res.status, res.text).toBe(200);
    const [a, b] = res.body.rows;
    expect(a.id).toBe(b.id);
    expect(b.cells).toMatchObject({ Company: "One", Score: "7" });
    expect(res.body.createdRowIds).toEqual([a.id]);
    expect(res.body.updatedRowIds).toEqual([]);
  });

  it("empty key values always insert", async () => {
    const res = await add({ mergeOn: ["Email"], rows: rows({ Company: "NoKey" }, { Company: "NoKey" }) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.createdRowIds).toHaveLength(2);
  });

  it("matches on a compound key", async () => {
    const first = await add({
      mergeOn: ["Company", "Country"],
      rows: rows({ Company: "Kilo", Country: "DE" }, { Company: "Kilo", Country: "FR" }),
    });
    expect(first.body.createdRowIds).toHaveLength(2);
    const res = await add({
      mergeOn: ["company", "COUNTRY"],
      rows: rows({ Company: "Kilo", Country: "FR", Score: 3 }, { Company: "Kilo", Country: "IT" }),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.updatedRowIds).toEqual([first.body.createdRowIds[1]]);
    expect(res.body.createdRowIds).toHaveLength(1);
  });

  it("queues AI cells for new rows and re-runs dependents of changed inputs, in one run", async () => {
    const res = await add({ mergeOn: ["Email"], rows: rows({ Email: "ai@x.com", Company: "Zeta" }) });
    expect(res.body.runId).toMatch(/^run_/);
    const again = await add({ mergeOn: ["Email"], rows: rows({ Email: "ai@x.com", Company: "Zeta" }) });
    expect(again.body.runId).toBeNull();
    const changed = await add({
      mergeOn: ["Email"],
      rows: rows({ Email: "ai@x.com", Company: "Zeta 2" }, { Email: "ai2@x.com", Company: "Eta" }),
    });
    expect(changed.body.runId).toMatch(/^run_/);
    const run = await app.api("GET", `/api/v1/runs/${changed.body.runId}`);
    expect(run.status, run.text).toBe(200);
    // The changed Company re-runs Ann's note; the new row's note is queued: two cells, one run.
    expect(run.body.counts.pending).toBe(2);
    expect(run.body.trigger).toBe("add-rows");
  });

  it("refuses an unknown mergeOn column and an empty list, writing nothing", async () => {
    const before = (await getRows(app, f.baseId)).length;
    const unknown = await add({ mergeOn: ["Nope"], rows: rows({ Email: "z@x.com" }) });
    expect([unknown.status, unknown.body.error.code]).toEqual([400, "unknown_column"]);
    const empty = await add({ mergeOn: [], rows: rows({ Email: "z@x.com" }) });
    expect([empty.status, empty.body.error.code]).toEqual([400, "validation_failed"]);
    expect((await getRows(app, f.baseId)).length).toBe(before);
  });

  it("another workspace's key cannot upsert into this base", async () => {
    const res = await add({ mergeOn: ["Email"], rows: rows({ Email: "ann@x.com" }) }, f.baseId, app.keyB);
    expect(res.status).toBe(404);
  });
});
