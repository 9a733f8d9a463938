import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows, THREE_COMPANIES, COMPANIES } from "./fixtures.ts";
import { EMITS_NOTHING, scenarios } from "./scenario.ts";

// Spec §4.1–§4.3: what the read endpoints refuse: unknown bases, rows and columns (404), and
// methods a route does not serve (405). The shapes they answer: read-shapes.test.ts.

let app: TestApp;
let f: TestBase;
let rows: any[];

beforeAll(async () => {
  app = await createTestApp();
  f = await createBase(app, COMPANIES);
  rows = await addRows(app, f.baseId, THREE_COMPANIES);
});
afterAll(() => app.close());

const rowsPath = () => `/api/v1/bases/${f.baseId}/rows`;

describe("404s", () => {
  scenarios(
    () => app,
    [
      {
        name: "Get Rows of an unknown base",
        method: "GET",
        path: "/api/v1/bases/Zz9Zz9Zz/rows",
        status: 404,
        code: "base_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "Get Row of an unknown base",
        method: "GET",
        path: () => `/api/v1/bases/Zz9Zz9Zz/rows/${rows[0].id}`,
        status: 404,
        code: "base_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "Base Structure of an unknown base",
        method: "GET",
        path: "/api/v1/bases/Zz9Zz9Zz/base-structure",
        status: 404,
        code: "base_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "Add Rows to an unknown base",
        method: "POST",
        path: "/api/v1/bases/Zz9Zz9Zz/add-rows",
        body: { rows: [] },
        status: 404,
        code: "base_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "Update Rows of an unknown base",
        method: "POST",
        path: "/api/v1/bases/Zz9Zz9Zz/update-rows",
        body: { rows: [] },
        status: 404,
        code: "base_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "Get Row of an unknown row",
        method: "GET",
        path: () => `/api/v1/bases/${f.baseId}/rows/sr_doesnotexist`,
        status: 404,
        code: "row_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "Get Row with expand of an unknown row",
        method: "GET",
        path: () => `/api/v1/bases/${f.baseId}/rows/sr_nope?expand=true`,
        status: 404,
        code: "row_not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "an unknown API path",
        method: "GET",
        path: "/api/v1/nothing-here",
        status: 404,
        code: "not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "an unknown path below a base",
        method: "GET",
        path: () => `/api/v1/bases/${f.baseId}/nope`,
        status: 404,
        code: "not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "an unknown deep path",
        method: "POST",
        path: "/api/v1/bases/a/b/c/d",
        body: {},
        status: 404,
        code: "not_found",
        ...EMITS_NOTHING,
      },
      {
        name: "an unknown path needs no key to be a 404",
        method: "DELETE",
        path: "/api/v1/x",
        key: null,
        status: 404,
        code: "not_found",
        ...EMITS_NOTHING,
      },
    ],
  );

  it("a row of another base of the same workspace is row_not_found", async () => {
    const other = await createBase(app, { columns: [{ name: "Name", type: "short-text" }], name: "Other" });
    const res = await app.api("GET", `/api/v1/bases/${other.baseId}/rows/${rows[0].id}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("row_not_found");
  });
});

describe("methods a route does not serve answer JSON 405", () => {
  scenarios(
    () => app,
    [
      {
        name: "PUT on rows",
        method: "PUT",
        path: () => rowsPath(),
        body: {},
        status: 405,
        code: "method_not_allowed",
        ...EMITS_NOTHING,
      },
      {
        name: "DELETE on rows",
        method: "DELETE",
        path: () => rowsPath(),
        status: 405,
        code: "method_not_allowed",
        ...EMITS_NOTHING,
      },
      {
        name: "GET on add-rows",
        method: "GET",
        path: () => `/api/v1/bases/${f.baseId}/add-rows`,
        status: 405,
        code: "method_not_allowed",
        ...EMITS_NOTHING,
      },
      {
        name: "PATCH on update-rows",
        method: "PATCH",
        path: () => `/api/v1/bases/${f.baseId}/update-rows`,
        status: 405,
        code: "method_not_allowed",
        ...EMITS_NOTHING,
      },
      {
        name: "POST on base-structure",
        method: "POST",
        path: () => `/api/v1/bases/${f.baseId}/base-structure`,
        body: {},
        status: 405,
        code: "method_not_allowed",
        ...EMITS_NOTHING,
      },
      {
        name: "PUT on bases",
        method: "PUT",
        path: "/api/v1/bases",
        body: {},
        status: 405,
        code: "method_not_allowed",
        ...EMITS_NOTHING,
      },
      {
        name: "POST on a base",
        method: "POST",
        path: () => `/api/v1/bases/${f.baseId}`,
        body: {},
        status: 405,
        code: "method_not_allowed",
        ...EMITS_NOTHING,
      },
      {
        name: "GET on a column",
        method: "GET",
        path: () => `/api/v1/bases/${f.baseId}/columns/${f.col.Company}`,
        status: 405,
        code: "method_not_allowed",
        ...EMITS_NOTHING,
      },
      {
        name: "GET on delete-rows",
        method: "GET",
        path: () => `/api/v1/bases/${f.baseId}/delete-rows`,
        status: 405,
        code: "method_not_allowed",
        ...EMITS_NOTHING,
      },
      {
        name: "PATCH on api-keys",
        method: "PATCH",
        path: "/api/v1/api-keys",
        body: {},
        status: 405,
        code: "method_not_allowed",
        ...EMITS_NOTHING,
      },
      {
        name: "GET on one api key",
        method: "GET",
        path: "/api/v1/api-keys/key_x",
        status: 405,
        code: "method_not_allowed",
        ...EMITS_NOTHING,
      },
      {
        name: "POST on health",
        method: "POST",
        path: "/api/health",
        body: {},
        status: 405,
        code: "method_not_allowed",
        ...EMITS_NOTHING,
      },
    ],
  );

  it("names the allowed methods", async () => {
    const res = await app.api("DELETE", rowsPath());
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});
