import { isGenerated } from "@/lib/domain/fill/kinds.ts";
import type { ColumnView } from "../../data/types";

// What the grid shows (filter, sort, search, view, review mode) as URL search parameters, so a
// filtered grid can be reloaded, bookmarked and shared. The filter bar edits a flat list of
// conditions ANDed together; any other tree (a view made through the API) is kept as it is.

export type ConditionValue = string | number | boolean | string[];

export interface Condition {
  column: string;
  op?: string;
  value?: ConditionValue;
  status?: string;
  confidence?: { lt?: number; gte?: number };
  needsReview?: boolean;
  verified?: boolean;
  stale?: boolean;
  changedSince?: string;
}

export type FilterTree = { and: FilterTree[] } | { or: FilterTree[] } | { not: FilterTree } | Condition;

export interface SortKey {
  column: string;
  direction: "asc" | "desc";
}

export interface GridQuery {
  viewId: string | null;
  filter: FilterTree | null;
  sort: SortKey[];
  search: string;
  review: boolean;
}

export const EMPTY_QUERY: GridQuery = { viewId: null, filter: null, sort: [], search: "", review: false };

function parseJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function parseSort(text: string | null): SortKey[] {
  if (!text) return [];
  return text
    .split(",")
    .filter(Boolean)
    .map((k) =>
      k.startsWith("-") ? { column: k.slice(1), direction: "desc" as const } : { column: k, direction: "asc" as const },
    );
}

export const formatSort = (sort: readonly SortKey[]) =>
  sort.map((k) => `${k.direction === "desc" ? "-" : ""}${k.column}`).join(",");

export function parseQuery(params: URLSearchParams): GridQuery {
  const filter = parseJson(params.get("filter"));
  return {
    viewId: params.get("view") || null,
    filter: filter && typeof filter === "object" ? (filter as FilterTree) : null,
    sort: parseSort(params.get("sort")),
    search: params.get("q") ?? "",
    review: params.get("review") === "1",
  };
}

export function queryToParams(q: GridQuery): string {
  const p = new URLSearchParams();
  if (q.viewId) p.set("view", q.viewId);
  if (q.filter) p.set("filter", JSON.stringify(q.filter));
  if (q.sort.length) p.set("sort", formatSort(q.sort));
  if (q.search) p.set("q", q.search);
  if (q.review) p.set("review", "1");
  return p.toString();
}

/** The conditions of a flat filter (one condition, or an AND of conditions); null for any other tree. */
export function conditionsOf(filter: FilterTree | null): Condition[] | null {
  if (!filter) return [];
  if ("and" in filter) return filter.and.every(isCondition) ? (filter.and as Condition[]) : null;
  return isCondition(filter) ? [filter] : null;
}

export const isCondition = (node: FilterTree): node is Condition => "column" in node;

export function filterOf(conditions: readonly Condition[]): FilterTree | null {
  if (conditions.length === 0) return null;
  return conditions.length === 1 ? conditions[0] : { and: [...conditions] };
}

/** Rows with at least one AI cell to review. */
export function needsReviewFilter(columns: readonly ColumnView[]): FilterTree | null {
  const ai = columns.filter(isGenerated);
  if (ai.length === 0) return null;
  const each = ai.map((c) => ({ column: c.id, needsReview: true }));
  return each.length === 1 ? each[0] : { or: each };
}

/** The body of Query Rows for this state; null when the grid shows every row in insertion order. */
export function queryRequest(
  q: GridQuery,
  columns: readonly ColumnView[],
): { filter?: FilterTree; sort?: SortKey[]; search?: string } | null {
  const parts = [q.filter, q.review ? needsReviewFilter(columns) : null].filter((f): f is FilterTree => f !== null);
  const filter = parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : { and: parts };
  const search = q.search.trim();
  if (!filter && q.sort.length === 0 && !search) return null;
  return { ...(filter ? { filter } : {}), ...(q.sort.length ? { sort: q.sort } : {}), ...(search ? { search } : {}) };
}

/** Whether the state narrows the rows (the toolbar then counts "N of M rows"). */
export const narrows = (q: GridQuery) => q.filter !== null || q.search.trim() !== "" || q.review;

/** A view's saved state in the grid's terms. */
export function viewQuery(view: {
  id: string;
  isDefault: boolean;
  filter: unknown;
  sort: { column: string; direction?: "asc" | "desc" }[];
  search: string;
}): GridQuery {
  return {
    viewId: view.isDefault ? null : view.id,
    filter: (view.filter as FilterTree | null) ?? null,
    sort: view.sort.map((k) => ({ column: k.column, direction: k.direction ?? "asc" })),
    search: view.search,
    review: false,
  };
}

/** Whether the grid's filter, sort and search are what the view saved. */
export function sameAsView(q: GridQuery, view: Parameters<typeof viewQuery>[0]): boolean {
  const v = viewQuery(view);
  return (
    JSON.stringify(v.filter) === JSON.stringify(q.filter) &&
    formatSort(v.sort) === formatSort(q.sort) &&
    v.search === q.search
  );
}
