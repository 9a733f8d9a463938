import { afterAll, beforeAll, describe } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { COLUMN_SUITE_BASE, columnsPath } from "./fixtures.ts";
import { EMITS_NOTHING, scenarios } from "./scenario.ts";

// Issue §6: the column requests the structure API refuses (validation). The rest: columns.test.ts.

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

describe("columns", () => {
  let f: TestBase;
  beforeAll(async () => {
    f = await createBase(app, COLUMN_SUITE_BASE);
  });

  describe("validation", () => {
    const p = () => columnsPath(f.baseId);
    scenarios(
      () => app,
      [
        {
          name: "an unknown type is 400 unknown_column_type",
          method: "POST",
          path: p,
          body: { name: "X", type: "money" },
          status: 400,
          code: "unknown_column_type",
          ...EMITS_NOTHING,
        },
        {
          name: "a prototype key is not a type",
          method: "POST",
          path: p,
          body: { name: "X", type: "constructor" },
          status: 400,
          code: "unknown_column_type",
          ...EMITS_NOTHING,
        },
        {
          name: "an unknown tool is 400 unknown_tool",
          method: "POST",
          path: p,
          body: { name: "X", tools: ["web-crawl"] },
          status: 400,
          code: "unknown_tool",
          ...EMITS_NOTHING,
        },
        {
          name: "an unknown tool object is 400 unknown_tool",
          method: "POST",
          path: p,
          body: { name: "X", tools: [{ name: "nope" }] },
          status: 400,
          code: "unknown_tool",
          ...EMITS_NOTHING,
        },
        {
          name: "an empty name is 400",
          method: "POST",
          path: p,
          body: { name: "   " },
          status: 400,
          code: "validation_failed",
          ...EMITS_NOTHING,
        },
        {
          name: "a 101-character name is 400",
          method: "POST",
          path: p,
          body: { name: "n".repeat(101) },
          status: 400,
          code: "validation_failed",
          ...EMITS_NOTHING,
        },
        {
          name: "a 100-character name is fine",
          method: "POST",
          path: p,
          body: { name: "n".repeat(100) },
          status: 201,
          events: () => [{ type: "structure.changed", baseId: f.baseId }],
          webhooks: [],
        },
        {
          name: "a missing name is 400",
          method: "POST",
          path: p,
          body: { type: "url" },
          status: 400,
          code: "validation_failed",
          ...EMITS_NOTHING,
        },
        {
          name: "an unknown field is 400",
          method: "POST",
          path: p,
          body: { name: "X", colour: "red" },
          status: 400,
          code: "validation_failed",
          ...EMITS_NOTHING,
        },
        {
          name: "an input that is not a column of this base is refused",
          method: "POST",
          path: p,
          body: { name: "X", inputColumnIds: ["scol_nope"] },
          status: 404,
          code: "column_not_found",
          ...EMITS_NOTHING,
        },
        {
          name: "a select without options is 400",
          method: "POST",
          path: p,
          body: { name: "Stage", type: "select" },
          status: 400,
          code: "validation_failed",
          ...EMITS_NOTHING,
        },
        {
          name: "a select with duplicate options is 400",
          method: "POST",
          path: p,
          body: { name: "Stage", type: "select", columnOptions: { options: ["a", "A"] } },
          status: 400,
          code: "validation_failed",
          ...EMITS_NOTHING,
        },
        {
          name: "a model without a provider is 400 unknown_model",
          method: "POST",
          path: p,
          body: { name: "X", columnOptions: { model: "mistral-large" } },
          status: 400,
          code: "unknown_model",
          ...EMITS_NOTHING,
        },
        {
          name: "an unknown provider is 400 unknown_model",
          method: "POST",
          path: p,
          body: { name: "X", columnOptions: { model: "acme:big" } },
          status: 400,
          code: "unknown_model",
          ...EMITS_NOTHING,
        },
        {
          name: "an unknown autoRun is 400",
          method: "POST",
          path: p,
          body: { name: "X", columnOptions: { autoRun: "sometimes" } },
          status: 400,
          code: "validation_failed",
          ...EMITS_NOTHING,
        },
        {
          name: "PATCH of an unknown column is 404",
          method: "PATCH",
          path: () => columnsPath(f.baseId, "scol_nope"),
          body: { name: "Y" },
          status: 404,
          code: "column_not_found",
          ...EMITS_NOTHING,
        },
        {
          name: "DELETE of an unknown column is 404",
          method: "DELETE",
          path: () => columnsPath(f.baseId, "scol_nope"),
          status: 404,
          code: "column_not_found",
          ...EMITS_NOTHING,
        },
        {
          name: "DELETE with force=maybe is 400",
          method: "DELETE",
          path: () => `${columnsPath(f.baseId, "scol_nope")}?force=maybe`,
          status: 400,
          code: "invalid_query",
          ...EMITS_NOTHING,
        },
        {
          name: "columns of an unknown base are 404",
          method: "POST",
          path: "/api/v1/bases/Nn0Nn0Nn/columns",
          body: { name: "X" },
          status: 404,
          code: "base_not_found",
          ...EMITS_NOTHING,
        },
      ],
    );
  });
});
