import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { dispatch } from "../support/router.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows, rowCount } from "./fixtures.ts";
import { EMITS_NOTHING, expectErrorShape, runScenario, scenarios } from "./scenario.ts";

// Issue §5 limits and §7 request errors: rows per request, body size, cell size, content type,
// malformed JSON. Each answer is a catalog error in JSON.

let app: TestApp;
let f: TestBase;

beforeAll(async () => {
  app = await createTestApp();
  f = await createBase(app, {
    columns: [
      { name: "Name", type: "short-text", isPrimary: true },
      { name: "Notes", type: "long-text" },
    ],
  });
});
afterAll(() => app.close());

const add = () => `/api/v1/bases/${f.baseId}/add-rows`;
const update = () => `/api/v1/bases/${f.baseId}/update-rows`;
const manyRows = (n: number) => Array.from({ length: n }, (_, i) => ({ cells: { Name: `r${i}` } }));

describe("rows per request", () => {
  it("accepts exactly 10,000 rows in one Add Rows request", async () => {
    const before = await rowCount(app, f.baseId);
    const res = await app.api("POST", add(), { body: { rows: manyRows(10_000) } });
    expect(res.status).toBe(200);
    expect(res.body.rows).toHaveLength(10_000);
    expect(res.body.rows.map((r: any) => r.cells.Name)).toEqual(manyRows(10_000).map((r) => r.cells.Name));
    // Stored in the order sent.
    const all = (await app.api("GET", `/api/v1/bases/${f.baseId}/rows`)).body.rows.slice(before);
    expect(all.map((r: any) => r.id)).toEqual(res.body.rows.map((r: any) => r.id));
    expect(await rowCount(app, f.baseId)).toBe(before + 10_000);
  });

  scenarios(
    () => app,
    [
      {
        name: "Add Rows with 10,001 rows is 400 too_many_rows",
        method: "POST",
        path: add,
        body: () => ({ rows: manyRows(10_001) }),
        status: 400,
        code: "too_many_rows",
        ...EMITS_NOTHING,
      },
      {
        name: "Update Rows with 10,001 rows is 400 too_many_rows",
        method: "POST",
        path: update,
        body: () => ({ rows: Array.from({ length: 10_001 }, () => ({ id: "sr_x", cells: {} })) }),
        status: 400,
        code: "too_many_rows",
        ...EMITS_NOTHING,
      },
      {
        name: "delete-rows with 10,001 ids is 400 too_many_rows",
        method: "POST",
        path: () => `/api/v1/bases/${f.baseId}/delete-rows`,
        body: () => ({ rowIds: Array.from({ length: 10_001 }, (_, i) => `sr_${i}`) }),
        status: 400,
        code: "too_many_rows",
        ...EMITS_NOTHING,
      },
    ],
  );

  it("writes nothing when a request has too many rows", async () => {
    const before = await rowCount(app, f.baseId);
    await app.api("POST", add(), { body: { rows: manyRows(10_001) } });
    expect(await rowCount(app, f.baseId)).toBe(before);
  });
});

describe("body size", () => {
  const big = () => JSON.stringify({ rows: [{ cells: { Notes: "x".repeat(20 * 1024 * 1024) } }] });

  it("a body over 20 MB is 413 payload_too_large, and nothing is written", async () => {
    const before = await rowCount(app, f.baseId);
    const res = await runScenario(app, {
      name: "",
      method: "POST",
      path: add(),
      raw: big(),
      headers: { "content-type": "application/json" },
      status: 413,
      code: "payload_too_large",
      ...EMITS_NOTHING,
    });
    expect(res.body.error.message).toMatch(/20 MB/);
    expect(await rowCount(app, f.baseId)).toBe(before);
  });

  it("a body over 20 MB is refused on Update Rows too", async () => {
    await runScenario(app, {
      name: "",
      method: "POST",
      path: update(),
      raw: big(),
      headers: { "content-type": "application/json" },
      status: 413,
      code: "payload_too_large",
      ...EMITS_NOTHING,
    });
  });

  it("a declared Content-Length over 20 MB is refused before reading", async () => {
    const req = new Request(`http://localhost${add()}`, {
      method: "POST",
      headers: {
        "x-api-key": app.keyA,
        "content-type": "application/json",
        "content-length": String(21 * 1024 * 1024),
      },
      body: JSON.stringify({ rows: [] }),
    });
    const res = await dispatch(req);
    const text = await res.text();
    expect(res.status).toBe(413);
    expectErrorShape({ status: res.status, headers: res.headers, text, body: JSON.parse(text) }, "payload_too_large");
  });

  it("a body just under 20 MB is read (and then judged on its cells)", async () => {
    const res = await app.api("POST", add(), {
      raw: JSON.stringify({ rows: [{ cells: { Notes: "x".repeat(19 * 1024 * 1024) } }] }),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.errors[0]).toMatchObject({ rowIndex: 0, column: "Notes", code: "value_too_long" });
  });
});

describe("cell size", () => {
  it("a cell value of 100,000 characters is stored whole", async () => {
    const [row] = await addRows(app, f.baseId, [{ Notes: "y".repeat(100_000) }]);
    expect(row.cells.Notes).toHaveLength(100_000);
    const back = await app.api("GET", `/api/v1/bases/${f.baseId}/rows/${row.id}`);
    expect(back.body.cells.Notes).toHaveLength(100_000);
  });

  it("a cell value of 100,001 characters fails Add Rows with value_too_long", async () => {
    const res = await runScenario(app, {
      name: "",
      method: "POST",
      path: add(),
      body: { rows: [{ cells: { Notes: "y".repeat(100_001) } }] },
      status: 400,
      code: "validation_failed",
      ...EMITS_NOTHING,
    });
    expect(res.body.error.details.errors).toEqual([
      { rowIndex: 0, column: "Notes", code: "value_too_long", message: expect.stringContaining("100,000") },
    ]);
  });

  it("a cell value of 100,001 characters is an Update Rows error", async () => {
    const [row] = await addRows(app, f.baseId, [{ Name: "short" }]);
    const res = await app.api("POST", update(), {
      body: { rows: [{ id: row.id, cells: { Notes: "z".repeat(100_001) } }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([
      { rowId: row.id, column: "Notes", code: "value_too_long", message: expect.any(String) },
    ]);
  });
});

describe("content type and JSON syntax", () => {
  const json = { "content-type": "application/json" };
  const bodyRoutes: [string, () => string][] = [
    ["add-rows", add],
    ["update-rows", update],
    ["delete-rows", () => `/api/v1/bases/${f.baseId}/delete-rows`],
    ["create base", () => "/api/v1/bases"],
    ["create column", () => `/api/v1/bases/${f.baseId}/columns`],
    ["create API key", () => "/api/v1/api-keys"],
  ];
  for (const [label, path] of bodyRoutes) {
    scenarios(
      () => app,
      [
        {
          name: `${label}: text/plain is 415`,
          method: "POST",
          path,
          raw: '{"rows":[]}',
          headers: { "content-type": "text/plain" },
          status: 415,
          code: "unsupported_media_type",
          ...EMITS_NOTHING,
        },
        {
          name: `${label}: no content type is 415`,
          method: "POST",
          path,
          raw: '{"rows":[]}',
          status: 415,
          code: "unsupported_media_type",
          ...EMITS_NOTHING,
        },
        {
          name: `${label}: form data is 415`,
          method: "POST",
          path,
          raw: "rows=1",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          status: 415,
          code: "unsupported_media_type",
          ...EMITS_NOTHING,
        },
        {
          name: `${label}: malformed JSON is 400 invalid_json`,
          method: "POST",
          path,
          raw: '{"rows": [',
          headers: json,
          status: 400,
          code: "invalid_json",
          ...EMITS_NOTHING,
        },
        {
          name: `${label}: trailing garbage is 400 invalid_json`,
          method: "POST",
          path,
          raw: '{"rows": []} x',
          headers: json,
          status: 400,
          code: "invalid_json",
          ...EMITS_NOTHING,
        },
      ],
    );
  }
  scenarios(
    () => app,
    [
      {
        name: "PATCH base with text/plain is 415",
        method: "PATCH",
        path: () => `/api/v1/bases/${f.baseId}`,
        raw: "{}",
        headers: { "content-type": "text/plain" },
        status: 415,
        code: "unsupported_media_type",
        ...EMITS_NOTHING,
      },
      {
        name: "PATCH column with malformed JSON is 400",
        method: "PATCH",
        path: () => `/api/v1/bases/${f.baseId}/columns/x`,
        raw: "{",
        headers: json,
        status: 400,
        code: "invalid_json",
        ...EMITS_NOTHING,
      },
      {
        name: "application/json with a charset is accepted",
        method: "POST",
        path: add,
        raw: '{"rows":[]}',
        headers: { "content-type": "application/json; charset=utf-8" },
        status: 200,
        bodyEquals: { rows: [], runId: null },
      },
      {
        name: "a +json media type is accepted",
        method: "POST",
        path: add,
        raw: '{"rows":[]}',
        headers: { "content-type": "application/vnd.api+json" },
        status: 200,
      },
    ],
  );
});
