import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows, baseEndpoints, COMPANIES } from "./fixtures.ts";
import { EMITS_NOTHING, runScenario, scenarios } from "./scenario.ts";

// Issue §3: a key never sees another workspace's base. With B's key, every endpoint answers for
// A's base exactly as for a base that does not exist, and changes nothing.

let app: TestApp;
let a: TestBase;
let aRows: any[];
let b: TestBase;
let bRow: any;
let aKeyId: string;

async function snapshot() {
  const structure = (await app.api("GET", `/api/v1/bases/${a.baseId}/base-structure`)).body;
  const rows = (await app.api("GET", `/api/v1/bases/${a.baseId}/rows?expand=true`)).body;
  const summary = (await app.api("GET", `/api/v1/bases/${a.baseId}`)).body;
  return { structure, rows, name: summary.name, rowCount: summary.rowCount };
}
let before: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  app = await createTestApp();
  a = await createBase(app, COMPANIES);
  aRows = await addRows(app, a.baseId, [{ Company: "A-one" }, { Company: "A-two" }]);
  b = await createBase(app, { ...COMPANIES, key: app.keyB, name: "B's base" });
  [bRow] = await addRows(app, b.baseId, [{ Company: "B-one" }], app.keyB);
  aKeyId = (await app.api("GET", "/api/v1/api-keys")).body.apiKeys[0].id;
  before = await snapshot();
});
afterAll(() => app.close());

describe("B's key on A's base: 404 base_not_found on every endpoint", () => {
  for (const e of baseEndpoints(
    () => a.baseId,
    () => aRows[0].id,
    () => a.col.Website,
  )) {
    scenarios(
      () => app,
      [
        {
          name: `${e.method} ${e.label}`,
          method: e.method,
          path: e.path,
          body: e.body,
          key: "B",
          status: 404,
          code: "base_not_found",
          ...EMITS_NOTHING,
        },
      ],
    );
  }

  it("answers exactly as for a base that does not exist", async () => {
    const foreign = await app.api("GET", `/api/v1/bases/${a.baseId}/rows`, { key: app.keyB });
    const missing = await app.api("GET", `/api/v1/bases/Qq7Qq7Qq/rows`, { key: app.keyB });
    expect(foreign.status).toBe(missing.status);
    expect(foreign.text.replace(a.baseId, "ID")).toBe(missing.text.replace("Qq7Qq7Qq", "ID"));
  });

  it("left A's base untouched", async () => {
    expect(await snapshot()).toEqual(before);
  });

  it("A's key still sees everything", async () => {
    const reads = baseEndpoints(
      () => a.baseId,
      () => aRows[0].id,
      () => a.col.Website,
    ).filter((x) => x.method === "GET");
    expect(reads.length).toBeGreaterThan(0);
    for (const e of reads) {
      expect((await app.api("GET", e.path())).status).toBe(200);
    }
  });
});

describe("nothing of A leaks through B's own base", () => {
  scenarios(
    () => app,
    [
      {
        name: "A's row through B's base is row_not_found",
        method: "GET",
        path: () => `/api/v1/bases/${b.baseId}/rows/${aRows[0].id}`,
        key: "B",
        status: 404,
        code: "row_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "updating A's row through B's base is a row_not_found error",
        method: "POST",
        path: () => `/api/v1/bases/${b.baseId}/update-rows`,
        body: () => ({ rows: [{ id: aRows[0].id, cells: { Company: "hijack" } }] }),
        key: "B",
        status: 200,
        bodyMatches: () => ({ rows: [], errors: [{ rowId: aRows[0].id, code: "row_not_found" }] }),
      },
      {
        name: "deleting A's row through B's base reports it unknown",
        method: "POST",
        path: () => `/api/v1/bases/${b.baseId}/delete-rows`,
        body: () => ({ rowIds: [aRows[1].id] }),
        key: "B",
        status: 200,
        bodyMatches: () => ({ deletedRowIds: [], errors: [{ rowId: aRows[1].id, code: "row_not_found" }] }),
      },
      {
        name: "A's column as an input of B's column is refused",
        method: "POST",
        path: () => `/api/v1/bases/${b.baseId}/columns`,
        body: () => ({ name: "Leak", type: "short-text", inputColumnIds: [a.col.Company] }),
        key: "B",
        status: 404,
        code: "column_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "changing A's column through B's base is column_not_found",
        method: "PATCH",
        path: () => `/api/v1/bases/${b.baseId}/columns/${a.col.Company}`,
        body: { name: "x" },
        key: "B",
        status: 404,
        code: "column_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "deleting A's column through B's base is column_not_found",
        method: "DELETE",
        path: () => `/api/v1/bases/${b.baseId}/columns/${a.col.Website}?force=true`,
        key: "B",
        status: 404,
        code: "column_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "revoking A's key with B's key is api_key_not_found",
        method: "DELETE",
        path: () => `/api/v1/api-keys/${aKeyId}`,
        key: "B",
        status: 404,
        code: "api_key_not_found",
        ...EMITS_NOTHING,
      },
    ],
  );

  it("B's base list and key list show only B's", async () => {
    const bases = await app.api("GET", "/api/v1/bases", { key: app.keyB });
    expect(bases.body.bases.map((x: any) => x.baseId)).toEqual([b.baseId]);
    const keys = await app.api("GET", "/api/v1/api-keys", { key: app.keyB });
    expect(keys.body.apiKeys.map((k: any) => k.id)).not.toContain(aKeyId);
    const aBases = await app.api("GET", "/api/v1/bases");
    expect(aBases.body.bases.map((x: any) => x.baseId)).not.toContain(b.baseId);
  });

  it("A's rows and key are still intact", async () => {
    expect(await snapshot()).toEqual(before);
    expect((await app.api("GET", "/api/v1/bases")).status).toBe(200);
    const bStill = await runScenario(app, {
      name: "",
      method: "GET",
      path: `/api/v1/bases/${b.baseId}/rows`,
      key: "B",
      status: 200,
    });
    expect(bStill.body.rows).toEqual([{ id: bRow.id, cells: expect.objectContaining({ Company: "B-one" }) }]);
  });

  it("A's key on B's base is 404 too", async () => {
    for (const e of baseEndpoints(
      () => b.baseId,
      () => bRow.id,
      () => b.col.Website,
    )) {
      const body = typeof e.body === "function" ? e.body() : e.body;
      const res = await app.api(e.method, e.path(), { body });
      expect(res.status, `${e.method} ${e.label}`).toBe(404);
      expect(res.body.error.code).toBe("base_not_found");
    }
  });
});
