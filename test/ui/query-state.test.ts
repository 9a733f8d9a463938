import { describe, expect, it } from "vitest";
import {
  conditionsOf,
  EMPTY_QUERY,
  filterOf,
  narrows,
  parseQuery,
  queryRequest,
  queryToParams,
  sameAsView,
  viewQuery,
} from "../../components/grid/query/query-state.ts";
import { choiceOf, describeCondition, operatorChoices } from "../../components/grid/query/filter-ops.ts";
import type { ColumnView } from "../../components/data/types.ts";

const column = (id: string, name: string, type: string, isAiEnabled = false) =>
  ({ id, name, type, isAiEnabled, isPrimary: false, columnOptions: {} }) as unknown as ColumnView;
const columns = [
  column("c1", "Company", "short-text"),
  column("c2", "Employees", "number"),
  column("c3", "Summary", "long-text", true),
  column("c4", "Owner", "short-text", true),
];

describe("the grid's query in the URL", () => {
  it("round-trips filter, sort, search, view and review mode", () => {
    const q = {
      viewId: "view_1",
      filter: { and: [{ column: "c2", op: "gte", value: 50 }] },
      sort: [
        { column: "c2", direction: "desc" as const },
        { column: "c1", direction: "asc" as const },
      ],
      search: "acme & co",
      review: true,
    };
    const text = queryToParams(q);
    expect(text).toContain("sort=-c2%2Cc1");
    expect(parseQuery(new URLSearchParams(text))).toEqual(q);
    expect(queryToParams(EMPTY_QUERY)).toBe("");
  });

  it("ignores a filter parameter that is not JSON", () => {
    expect(parseQuery(new URLSearchParams("filter=%7Bnope")).filter).toBeNull();
  });

  it("asks Query Rows only when something narrows or orders the rows", () => {
    expect(queryRequest(EMPTY_QUERY, columns)).toBeNull();
    expect(queryRequest({ ...EMPTY_QUERY, search: "  " }, columns)).toBeNull();
    expect(queryRequest({ ...EMPTY_QUERY, sort: [{ column: "c2", direction: "asc" }] }, columns)).toEqual({
      sort: [{ column: "c2", direction: "asc" }],
    });
    expect(narrows({ ...EMPTY_QUERY, sort: [{ column: "c2", direction: "asc" }] })).toBe(false);
  });

  it("review mode ANDs 'any AI cell needs review' with the user's filter", () => {
    const filter = { column: "c2", op: "gt", value: 3 };
    expect(queryRequest({ ...EMPTY_QUERY, filter, review: true }, columns)).toEqual({
      filter: {
        and: [
          filter,
          {
            or: [
              { column: "c3", needsReview: true },
              { column: "c4", needsReview: true },
            ],
          },
        ],
      },
    });
    expect(queryRequest({ ...EMPTY_QUERY, review: true }, columns.slice(0, 3))).toEqual({
      filter: { column: "c3", needsReview: true },
    });
  });

  it("edits flat filters as conditions and keeps any other tree whole", () => {
    const a = { column: "c1", op: "contains", value: "x" };
    const b = { column: "c2", op: "isEmpty" };
    expect(conditionsOf(filterOf([a, b]))).toEqual([a, b]);
    expect(conditionsOf(filterOf([a]))).toEqual([a]);
    expect(filterOf([])).toBeNull();
    expect(conditionsOf({ or: [a, b] })).toBeNull();
  });

  it("tells a view's saved state from an edited one", () => {
    const view = {
      id: "view_1",
      isDefault: false,
      name: "Big",
      filter: { column: "c2", op: "gt", value: 100 },
      sort: [{ column: "c1" }],
      search: "",
    };
    const q = viewQuery(view);
    expect(q).toEqual({
      viewId: "view_1",
      filter: view.filter,
      sort: [{ column: "c1", direction: "asc" }],
      search: "",
      review: false,
    });
    expect(sameAsView(q, view)).toBe(true);
    expect(sameAsView({ ...q, search: "acme" }, view)).toBe(false);
    expect(viewQuery({ ...view, isDefault: true }).viewId).toBeNull();
  });
});

describe("the filter bar's operators", () => {
  it("offers what the column's type takes, plus cell states on AI columns", () => {
    expect(operatorChoices(columns[1]).map((c) => c.id)).toEqual([
      "eq",
      "neq",
      "in",
      "isEmpty",
      "isNotEmpty",
      "gt",
      "gte",
      "lt",
      "lte",
    ]);
    const ai = operatorChoices(columns[2]).map((c) => c.id);
    expect(ai).toContain("contains");
    expect(ai).toContain("needsReview");
    expect(operatorChoices(columns[0]).map((c) => c.id)).not.toContain("needsReview");
  });

  it("builds typed conditions and reads them back for editing", () => {
    const gte = operatorChoices(columns[1]).find((c) => c.id === "gte")!;
    expect(gte.build("c2", "50")).toEqual({ column: "c2", op: "gte", value: 50 });
    const anyOf = operatorChoices(columns[0]).find((c) => c.id === "in")!;
    expect(anyOf.build("c1", "a, b ,,c")).toEqual({ column: "c1", op: "in", value: ["a", "b", "c"] });
    const conf = operatorChoices(columns[2]).find((c) => c.id === "confidenceLt")!;
    const built = conf.build("c3", "60");
    expect(built).toEqual({ column: "c3", confidence: { lt: 0.6 } });
    expect(choiceOf(built)).toEqual({ id: "confidenceLt", value: "60" });
    expect(describeCondition(built, columns)).toBe("Summary confidence below 60%");
    expect(describeCondition({ column: "c2", op: "gte", value: 50 }, columns)).toBe("Employees ≥ 50");
    expect(describeCondition({ column: "c3", needsReview: true }, columns)).toBe("Summary needs review");
  });
});
