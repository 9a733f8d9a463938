import { expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { useEngineApp } from "../engine/helpers.ts";

// A deployment without web search cannot find rows: it says so, and starts nothing.

const t = useEngineApp();

it("answers 503 search_not_configured, and starts no run and makes no column", async () => {
  const b = await createBase(t.app, { columns: [{ name: "Company", type: "short-text", isPrimary: true }] });
  const res = await t.app.api("POST", `/api/v1/bases/${b.baseId}/finds`, {
    body: { query: "Bakeries in Lyon", criteria: ["Sells bread"], count: 5 },
  });
  expect(res.status).toBe(503);
  expect(res.body.error.code).toBe("search_not_configured");
  expect(res.body.error.message).toContain("SEARCH_PROVIDER");
  expect((await t.app.api("GET", `/api/v1/bases/${b.baseId}/runs`)).body.runs).toEqual([]);
  expect((await t.app.api("GET", `/api/v1/bases/${b.baseId}/base-structure`)).body.sheetColumns).toHaveLength(1);
});
