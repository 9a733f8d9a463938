import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { EMITS_NOTHING, runScenario, scenarios } from "./scenario.ts";

// Saved views: the default "All rows", create, rename, delete, and querying through a view.

let app: TestApp;
let base: TestBase;
let viewId: string;

beforeAll(async () => {
  app = await createTestApp();
  base = await createBase(app, {
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Employees", type: "number" },
    ],
  });
  const rows = [
    { Company: "Acme", Employees: 120 },
    { Company: "Globex", Employees: 40 },
    { Company: "Initech", Employees: 50 },
    { Company: "Acme Labs", Employees: 8 },
  ];
  await app.api("POST", `/api/v1/bases/${base.baseId}/add-rows`, { body: { rows: rows.map((cells) => ({ cells })) } });
});
afterAll(() => app.close());

const views = () => `/api/v1/bases/${base.baseId}/views`;
const names = (res: { body: { rows: { cells: { Company: string } }[] } }) => res.body.rows.map((r) => r.cells.Company);

describe("views", () => {
  it("every base has the default view, which cannot be deleted", async () => {
    const list = await runScenario(app, { name: "list", method: "GET", path: views(), status: 200 });
    expect(list.body.views).toEqual([
      expect.objectContaining({ name: "All rows", isDefault: true, filter: null, sort: [], search: "" }),
    ]);
    await runScenario(app, {
      name: "delete default",
      method: "DELETE",
      path: `${views()}/${list.body.views[0].id}`,
      status: 409,
      code: "default_view",
      ...EMITS_NOTHING,
    });
  });

  it("creates, reads, renames and applies a view; an explicit filter is ANDed with it", async () => {
    const created = await runScenario(app, {
      name: "create",
      method: "POST",
      path: views(),
      body: {
        name: "Big",
        filter: { column: "Employees", op: "gte", value: 40 },
        sort: [{ column: "Employees", direction: "desc" }],
        hiddenColumnIds: [base.col.Employees],
        columnWidths: { [base.col.Company]: 240 },
      },
      status: 201,
    });
    viewId = created.body.id;
    expect(created.body).toMatchObject({
      name: "Big",
      isDefault: false,
      hiddenColumnIds: [base.col.Employees],
      columnWidths: { [base.col.Company]: 240 },
    });
    const q = (body: object) =>
      app.api("POST", `/api/v1/bases/${base.baseId}/rows/query`, { body: { viewId, ...body } });
    expect(names(await q({}))).toEqual(["Acme", "Initech", "Globex"]);
    expect(names(await q({ filter: { column: "Company", op: "startsWith", value: "a" } }))).toEqual(["Acme"]);
    expect(names(await q({ sort: [{ column: "Company" }] }))).toEqual(["Acme", "Globex", "Initech"]);
    const renamed = await runScenario(app, {
      name: "rename",
      method: "PATCH",
      path: `${views()}/${viewId}`,
      body: { name: "Large", search: "e" },
      status: 200,
    });
    expect(renamed.body).toMatchObject({
      name: "Large",
      search: "e",
      filter: { column: "Employees", op: "gte", value: 40 },
    });
    expect(names(await q({}))).toEqual(["Acme", "Initech", "Globex"]);
    const get = await runScenario(app, { name: "get", method: "GET", path: `${views()}/${viewId}`, status: 200 });
    expect(get.body.name).toBe("Large");
    const viaGet = await app.api("GET", `/api/v1/bases/${base.baseId}/rows?viewId=${viewId}&count=true`);
    expect(viaGet.body.total).toBe(3);
  });

  it("deletes a view", async () => {
    const extra = await app.api("POST", views(), { body: { name: "Temp" } });
    await runScenario(app, {
      name: "delete",
      method: "DELETE",
      path: `${views()}/${extra.body.id}`,
      status: 200,
      bodyEquals: { id: extra.body.id, deleted: true },
    });
    await runScenario(app, {
      name: "gone",
      method: "GET",
      path: `${views()}/${extra.body.id}`,
      status: 404,
      code: "view_not_found",
    });
  });

  scenarios(
    () => app,
    [
      {
        name: "a view's filter is checked against the columns",
        method: "POST",
        path: views,
        body: { name: "X", filter: { column: "Nope", op: "eq", value: 1 } },
        status: 400,
        code: "unknown_column",
        ...EMITS_NOTHING,
      },
      {
        name: "a view's bad filter names its node",
        method: "POST",
        path: views,
        body: { name: "X", filter: { or: [{ column: "Company", op: "gt", value: 1 }] } },
        status: 400,
        code: "invalid_filter",
        bodyMatches: { error: { details: { path: "filter.or[0].op" } } },
      },
      {
        name: "a view needs a name",
        method: "POST",
        path: views,
        body: { name: " " },
        status: 400,
        code: "validation_failed",
      },
      {
        name: "an unknown view",
        method: "PATCH",
        path: () => `${views()}/view_nope`,
        body: { name: "Y" },
        status: 404,
        code: "view_not_found",
      },
      {
        name: "querying through an unknown view",
        method: "POST",
        path: () => `/api/v1/bases/${base.baseId}/rows/query`,
        body: { viewId: "view_nope" },
        status: 404,
        code: "view_not_found",
      },
      {
        name: "another workspace's views",
        method: "GET",
        path: () => `${views()}/${viewId}`,
        key: "B",
        status: 404,
        code: "base_not_found",
      },
    ],
  );
});
