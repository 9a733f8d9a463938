import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { allRows, upload } from "./helpers.ts";

// The dry run behind the web app's import dialog: first lines, where each field goes, the AI
// cells an import would queue; nothing written.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

it("previews fields, types, the first 20 lines and the AI estimate, writing nothing", async () => {
  const { baseId } = await createBase(app, {
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Summary", type: "long-text", isAiEnabled: true, inputColumns: ["Company"], instructions: "Summarise." },
    ],
  });
  const csv = `company,Employees,Blank\n${Array.from({ length: 30 }, (_, i) => `C${i},${i * 10},`).join("\n")}\n`;
  const res = await upload(app, baseId, csv, { query: "/preview?mergeOn=Company" });
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({
    format: "csv",
    linesTotal: 30,
    fields: [
      { name: "company", action: "match", column: "Company", type: "short-text" },
      { name: "Employees", action: "create", column: "Employees", type: "number" },
      { name: "Blank", action: "create", column: "Blank", type: "short-text" },
    ],
    aiColumns: ["Summary"],
    aiCells: 30,
  });
  expect(res.body.rows).toHaveLength(20);
  expect(res.body.rows[0]).toEqual(["C0", "0", ""]);
  expect(await allRows(app, baseId)).toEqual([]);
  const off = await upload(app, baseId, csv, { query: "/preview?runAi=false&createColumns=false" });
  expect(off.body).toMatchObject({
    aiCells: 0,
    fields: [{ action: "match" }, { action: "ignore" }, { action: "ignore" }],
  });
});

it("a file that does not parse is 400 invalid_file with its line; an unknown merge column 400", async () => {
  const { baseId } = await createBase(app, { columns: [] });
  const bad = await upload(app, baseId, 'a,b\n1,2\n"open,3\n', { query: "/preview" });
  expect([bad.status, bad.body.error.code, bad.body.error.details.line]).toEqual([400, "invalid_file", 3]);
  const key = await upload(app, baseId, "a,b\n1,2\n", { query: "/preview?mergeOn=zzz" });
  expect([key.status, key.body.error.code]).toEqual([400, "unknown_column"]);
  expect((await upload(app, baseId, "a\n1\n", { query: "/preview", key: app.keyB })).status).toBe(404);
});
