import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows } from "../api/fixtures.ts";
import { settled } from "../engine/helpers.ts";
import { csvRows, download, jsonlRows, xlsxRows } from "./helpers.ts";

// metadata=true: after each AI column its confidence, sources, status and verified, from cells
// the engine filled through a fake LLM.

let llm: FakeLlm;
let app: TestApp;
let base: TestBase;

beforeAll(async () => {
  llm = await startFakeLlm();
  app = await createTestApp(
    { OPENAI_BASE_URL: llm.baseUrl, AI_MODEL: "openai:test-model", AI_RETRY_BASE_MS: "20", AI_MAX_ATTEMPTS: "1" },
    { engine: true },
  );
  llm.setHandler((req) => {
    const company = /"Company": "([^"]*)"/.exec(req.lastUserText)?.[1] ?? "";
    // Sources are kept only when a tool found them (none here): columns.test.ts covers them.
    if (company === "Acme") return { json: { value: "=1+1", sources: [], confidenceScore: 0.9 } };
    return { json: { value: "Small", sources: [], confidenceScore: 0.4 } };
  });
  base = await createBase(app, {
    name: "Enriched",
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Size", type: "short-text", isAiEnabled: true, inputColumns: ["Company"], instructions: "Company size." },
      { name: "Note", type: "short-text" },
    ],
  });
  await addRows(app, base.baseId, [{ Company: "Acme" }, { Company: "Globex" }]);
  await settled(app, base.baseId);
  const acme = (await app.api("GET", `/api/v1/bases/${base.baseId}/rows`)).body.rows[0].id;
  const review = await app.api("POST", `/api/v1/bases/${base.baseId}/review`, {
    body: { cells: [{ rowId: acme, columnId: base.col.Size, action: "accept" }] },
  });
  expect(review.status, review.text).toBe(200);
}, 120_000);
afterAll(async () => {
  await app.close();
  await llm.close();
});

const META = ["Size (confidence)", "Size (sources)", "Size (status)", "Size (verified)"];

describe("metadata=true", () => {
  it("adds confidence, sources (newline-separated), status and verified after each AI column in CSV", async () => {
    const rows = csvRows((await download(app, base.baseId, "format=csv&metadata=true")).bytes);
    expect(rows).toEqual([
      ["Company", "Size", ...META, "Note"],
      ["Acme", "'=1+1", "0.9", "", "done", "true", ""],
      ["Globex", "Small", "0.4", "", "done", "false", ""],
    ]);
  });

  it("types them in XLSX", async () => {
    const { rows } = await xlsxRows((await download(app, base.baseId, "format=xlsx&metadata=true")).bytes);
    expect(rows[1]).toEqual(["Acme", "'=1+1", 0.9, null, "done", true, null]);
    expect(rows[2]).toEqual(["Globex", "Small", 0.4, null, "done", false, null]);
  });

  it("keeps JSON types in JSON Lines: a number, a list, a boolean", async () => {
    const rows = jsonlRows((await download(app, base.baseId, "format=jsonl&metadata=true&columns=Size")).bytes);
    expect(rows[0]).toEqual({
      Size: "=1+1",
      "Size (confidence)": 0.9,
      "Size (sources)": [],
      "Size (status)": "done",
      "Size (verified)": true,
    });
  });

  it("filters on cell state, as Query Rows does", async () => {
    const filter = encodeURIComponent(JSON.stringify({ column: "Size", confidence: { lt: 0.5 } }));
    const rows = csvRows((await download(app, base.baseId, `format=csv&filter=${filter}&columns=Company`)).bytes);
    expect(rows).toEqual([["Company"], ["Globex"]]);
  });

  it("adds nothing without metadata=true", async () => {
    expect(csvRows((await download(app, base.baseId, "format=csv")).bytes)[0]).toEqual(["Company", "Size", "Note"]);
  });
});
