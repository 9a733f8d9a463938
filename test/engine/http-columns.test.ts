import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider.ts";
import { addRows, expandedRows, settled, useEngineApp } from "./helpers.ts";

// HTTP columns with the engine running, against a real local provider: a found value is done
// and charged, a miss ends not_found and costs what it declares, an answer is cached by request,
// a secret is sent but never kept, and a run condition skips the call.

const t = useEngineApp({ AI_CONCURRENCY: "4", ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
let provider: FakeProvider;
beforeAll(async () => {
  provider = await startFakeProvider((r) => {
    const domain = r.query.get("domain") ?? "";
    if (r.headers.authorization !== "Bearer hk_test_secret_value") return { status: 401, json: {} };
    if (domain.startsWith("gone")) return { status: 404, json: { error: "unknown" } };
    return { json: { data: { employees: domain.length * 10, domain } } };
  });
  const res = await t.app.api("POST", "/api/v1/secrets", {
    body: { name: "PROVIDER_KEY", value: "hk_test_secret_value" },
  });
  expect(res.status, res.text).toBe(201);
});
afterAll(() => provider.close());
beforeEach(() => provider.reset());

const ledger = async (columnId: string) =>
  (
    await t.app.rt.db.prisma.$queryRawUnsafe<{ amount: number; reason: string }[]>(
      `SELECT amount, reason FROM credit_entries WHERE column_id = $1 ORDER BY created_at`,
      columnId,
    )
  ).map((e) => e.amount);

const sizeColumn = (over: Record<string, unknown> = {}) => ({
  name: "Employees",
  type: "number",
  fill: {
    kind: "http",
    request: {
      method: "GET",
      url: `${provider.url}/company?domain={{Domain}}`,
      headers: { Authorization: "Bearer {{secret:PROVIDER_KEY}}" },
    },
    extract: "data.employees",
    credits: { found: 2, notFound: 0 },
    ...over,
  },
});

describe("HTTP columns", () => {
  it("fill cells from the provider: found is done and charged, a 404 is not_found and free", async () => {
    const base = await createBase(t.app, {
      columns: [{ name: "Domain", type: "short-text", isPrimary: true }, sizeColumn()],
    });
    const col = base.structure.sheetColumns.find((c: { name: string }) => c.name === "Employees");
    expect(col).toMatchObject({ isAiEnabled: false, fill: { kind: "http" }, inputColumnIds: [base.col.Domain] });
    await addRows(t.app, base.baseId, [{ Domain: "acme.example" }, { Domain: "gone.example" }]);
    const rows = await settled(t.app, base.baseId);
    expect(rows[0].cells.Employees).toMatchObject({ value: "120", status: "done" });
    expect(rows[1].cells.Employees).toMatchObject({ value: "", status: "not_found" });
    expect(rows[1].cells.Employees.error).toBeUndefined();
    const steps = rows[0].cells.Employees.metadata.steps;
    expect(steps).toEqual([
      expect.objectContaining({ kind: "http", status: "found", credits: 2, httpStatus: 200, provider: provider.host }),
    ]);
    expect(rows[1].cells.Employees.metadata.steps[0]).toMatchObject({
      status: "not_found",
      credits: 0,
      httpStatus: 404,
    });
    expect(await ledger(base.col.Employees)).toEqual([-2]);
    expect(provider.requests).toHaveLength(2);
    expect(t.llm.requests).toHaveLength(0);

    // Not found is a status the filter grammar names.
    const query = await t.app.api("POST", `/api/v1/bases/${base.baseId}/rows/query`, {
      body: { filter: { column: "Employees", status: "not_found" } },
    });
    expect(query.status, query.text).toBe(200);
    expect(query.body.rows.map((r: { cells: { Domain: string } }) => r.cells.Domain)).toEqual(["gone.example"]);

    // Run again: every answer comes from the cache, so nothing is called and nothing is charged.
    provider.reset();
    const run = await t.app.api("POST", `/api/v1/bases/${base.baseId}/run`, {
      body: { columnIds: [base.col.Employees], statuses: ["done", "not_found"] },
    });
    expect(run.status, run.text).toBe(202);
    const again = await settled(t.app, base.baseId);
    expect(again.map((r) => r.cells.Employees.status)).toEqual(["done", "not_found"]);
    expect(again[0].cells.Employees.metadata.steps[0].status).toBe("cached");
    expect(provider.requests.map((r) => `${r.path}?${r.query}`)).toEqual([]);
    expect(await ledger(base.col.Employees)).toEqual([-2]);
  });

  it("never keeps the secret it sends: not in cells, metadata, attempts or the cache", async () => {
    const base = await createBase(t.app, {
      columns: [
        { name: "Domain", type: "short-text", isPrimary: true },
        sizeColumn({
          request: {
            method: "GET",
            url: `${provider.url}/company?domain={{Domain}}&token={{secret:PROVIDER_KEY}}`,
            headers: { Authorization: "Bearer {{secret:PROVIDER_KEY}}" },
          },
        }),
      ],
    });
    await addRows(t.app, base.baseId, [{ Domain: "secret.example" }]);
    const [row] = await settled(t.app, base.baseId);
    expect(row.cells.Employees.status).toBe("done");
    expect(row.cells.Employees.metadata.sources[0]).toContain("token=[secret:PROVIDER_KEY]");
    const dump = await t.app.rt.db.prisma.$queryRawUnsafe<{ t: string }[]>(
      `SELECT (SELECT json_agg(c) FROM cells c)::text || (SELECT json_agg(r) FROM cell_runs r)::text
        || coalesce((SELECT json_agg(h) FROM http_cache h)::text, '') || (SELECT json_agg(col) FROM columns col)::text AS t`,
    );
    expect(dump[0].t).not.toContain("hk_test_secret_value");
  });

  it("ends in error with a stable code when the provider refuses or a secret is missing", async () => {
    const base = await createBase(t.app, {
      columns: [
        { name: "Domain", type: "short-text", isPrimary: true },
        sizeColumn({ request: { method: "GET", url: `${provider.url}/company?domain={{Domain}}` } }),
        {
          name: "Other",
          type: "number",
          fill: {
            kind: "http",
            request: { method: "GET", url: `${provider.url}/x?k={{secret:NOT_THERE}}` },
            extract: "data.employees",
          },
        },
      ],
    });
    await addRows(t.app, base.baseId, [{ Domain: "acme.example" }]);
    const [row] = await settled(t.app, base.baseId);
    expect(row.cells.Employees).toMatchObject({ status: "error", error: { code: "provider_refused" } });
    expect(row.cells.Other).toMatchObject({ status: "error", error: { code: "secret_not_found" } });
    expect(await ledger(base.col.Employees)).toEqual([]);
  });

  it("skips the call when the run condition is false", async () => {
    const base = await createBase(t.app, {
      columns: [
        { name: "Domain", type: "short-text", isPrimary: true },
        { name: "Known", type: "number" },
        { ...sizeColumn(), runIf: { column: "Known", op: "isEmpty" } },
      ],
    });
    await addRows(t.app, base.baseId, [{ Domain: "acme.example", Known: "5" }, { Domain: "b.example" }]);
    const rows = await settled(t.app, base.baseId);
    expect(rows.map((r) => r.cells.Employees.status)).toEqual(["skipped", "done"]);
    expect(provider.requests.map((r) => r.query.get("domain"))).toEqual(["b.example"]);
  });

  it("tests a request on one row before the column exists: the answer and the value, nothing stored", async () => {
    const base = await createBase(t.app, { columns: [{ name: "Domain", type: "short-text", isPrimary: true }] });
    const [row] = await addRows(t.app, base.baseId, [{ Domain: "preview.example" }]);
    const fill = { ...sizeColumn().fill, cacheTtlSeconds: 0 };
    const res = await t.app.api("POST", `/api/v1/bases/${base.baseId}/fill-preview`, {
      body: { fill, rowId: row.id, type: "number" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      outcome: "found",
      value: "150",
      status: 200,
      cached: false,
      credits: 2,
      error: null,
    });
    expect(JSON.parse(res.body.answer)).toEqual({ data: { employees: 150, domain: "preview.example" } });
    const refused = await t.app.api("POST", `/api/v1/bases/${base.baseId}/fill-preview`, {
      body: {
        fill: { ...fill, request: { method: "GET", url: `${provider.url}/company?domain={{Domain}}` } },
        rowId: row.id,
      },
    });
    expect(refused.body).toMatchObject({ outcome: "error", status: 401, error: { code: "provider_refused" } });
    const missing = await t.app.api("POST", `/api/v1/bases/${base.baseId}/fill-preview`, {
      body: { fill, rowId: "sr_nope" },
    });
    expect(missing.status).toBe(404);
    const other = await t.app.api("POST", `/api/v1/bases/${base.baseId}/fill-preview`, {
      key: t.app.keyB,
      body: { fill, rowId: row.id },
    });
    expect(other.status).toBe(404);
    expect(await ledger(base.col.Domain)).toEqual([]);
    const cells = await t.app.rt.db.prisma.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM cells WHERE row_id = $1`, row.id);
    expect(cells).toHaveLength(0);
  });

  it("refuses a template naming a column the base lacks, and changes nothing", async () => {
    const base = await createBase(t.app, { columns: [{ name: "Domain", type: "short-text", isPrimary: true }] });
    const res = await t.app.api("POST", `/api/v1/bases/${base.baseId}/columns`, {
      body: sizeColumn({ request: { method: "GET", url: `${provider.url}/c?d={{Domian}}` } }),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_fill" });
    expect(res.body.error.message).toContain("Domian");
    const bad = await t.app.api("POST", `/api/v1/bases/${base.baseId}/columns`, {
      body: sizeColumn({ extract: "data.(" }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_fill", details: { field: "fill.extract" } });
    const s = await t.app.api("GET", `/api/v1/bases/${base.baseId}/base-structure`);
    expect(s.body.sheetColumns).toHaveLength(1);
    expect(await expandedRows(t.app, base.baseId)).toHaveLength(0);
  });
});
