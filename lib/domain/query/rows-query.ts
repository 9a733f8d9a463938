import type { Tx } from "../../db/database.ts";
import { appError } from "../../errors.ts";
import { loadBase, loadColumns } from "../base-context.ts";
import { CELLS_OF_ROW, openRowsReader, parsed, statesOf } from "../rows-read.ts";
import { rowJson } from "../row-view.ts";
import { loadView } from "../views.ts";
import { parseFilter, type FilterNode } from "./filter.ts";
import type { RowsQueryInput } from "./request.ts";
import { compileSort, decodeQueryCursor, encodeQueryCursor, parseSort, sortFromQueryText } from "./sort.ts";
import { cleanSearch, compileFilter, Params, searchSql, sqlId } from "./sql.ts";

// Query Rows: one page of the rows that match a filter and a search, in a typed sort order. All of
// it runs in the database (filter, search, sort, count, paging); nothing is filtered here.

export const DEFAULT_QUERY_LIMIT = 100;

type RawRow = { id: string; seq: bigint; values: unknown; cells?: unknown } & Record<`k${number}`, string | null>;

export async function queryRows(tx: Tx, workspaceId: string, baseId: string, q: RowsQueryInput) {
  const ctx = await loadBase(tx, workspaceId, baseId);
  const columns = await loadColumns(tx, ctx.sheetId);
  const view = q.viewId ? await loadView(tx, ctx.baseId, q.viewId) : undefined;

  const filters: FilterNode[] = [];
  if (view?.filter) filters.push(parseFilter(view.filter, columns, "view.filter"));
  if (q.filter !== undefined && q.filter !== null) filters.push(parseFilter(q.filter, columns));
  const sortKeys = q.sort ? parseSort(q.sort, columns) : parseSort(view?.sort ?? [], columns, "view.sort");
  const search = cleanSearch(q.search ?? view?.search ?? "");

  const p = new Params();
  const where = [`r.sheet_id = ${sqlId(ctx.sheetId)}`, ...filters.map((f) => compileFilter(f, p))];
  if (search) where.push(searchSql(search, p));
  // The count statement takes only the WHERE's parameters; the sort and the page add theirs after.
  const whereParams = [...p.values];
  const sort = compileSort(sortKeys, p);

  let total: number | undefined;
  if (q.count) {
    const [{ n }] = await tx.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM rows r WHERE ${where.join(" AND ")}`, ...whereParams);
    total = Number(n);
  }
  const limit = q.limit ?? DEFAULT_QUERY_LIMIT;
  const pageWhere = q.cursor ? [...where, sort.after(decodeQueryCursor(q.cursor), p)] : where;
  const rows = await tx.$queryRawUnsafe<RawRow[]>(
    `SELECT r.id, r.seq, r."values"${q.expand ? `, ${CELLS_OF_ROW} AS cells` : ""}${sort.select}
     FROM rows r WHERE ${pageWhere.join(" AND ")}
     ORDER BY ${sort.orderBy} LIMIT ${p.add(limit + 1)}::int`,
    ...p.values,
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > limit && last
      ? encodeQueryCursor({ fingerprint: sort.fingerprint, keys: sortKeys.map((_, i) => last[`k${i}`] ?? null), seq: BigInt(last.seq) })
      : null;
  return {
    rows: page.map((r) => rowJson(columns, { id: r.id, values: parsed(r.values) }, Boolean(q.expand), q.expand ? statesOf(r.cells) : undefined)),
    nextCursor,
    ...(total !== undefined ? { total } : {}),
  };
}

export interface RowsGetQuery {
  expand: boolean;
  limit?: number;
  cursor?: string;
  filter?: string;
  sort?: string;
  search?: string;
  count: boolean;
  viewId?: string;
}

/** Whether Get Rows was given any query option (then it answers one page, as Query Rows). */
export const isQueryGet = (q: RowsGetQuery) => q.filter !== undefined || q.sort !== undefined || q.search !== undefined || q.count || q.viewId !== undefined;

/** Get Rows' query parameters as a Query Rows body: `filter` is URL-encoded JSON, `sort` is `-Employees,Company`. */
export function queryFromGet(q: RowsGetQuery): RowsQueryInput {
  let filter: unknown;
  if (q.filter !== undefined) {
    try {
      filter = JSON.parse(q.filter);
    } catch {
      throw appError("invalid_filter", "filter is a JSON filter tree, URL-encoded (at filter).", { path: "filter" });
    }
  }
  return {
    filter,
    sort: q.sort !== undefined ? sortFromQueryText(q.sort) : undefined,
    search: q.search,
    viewId: q.viewId,
    limit: q.limit,
    cursor: q.cursor,
    expand: q.expand,
    count: q.count,
  };
}

/** Get Rows: with query options one page as Query Rows answers it, otherwise every row (streamed) or a plain page. */
export async function readRows(tx: Tx, workspaceId: string, baseId: string, q: RowsGetQuery) {
  if (isQueryGet(q)) return { kind: "page" as const, ...(await queryRows(tx, workspaceId, baseId, queryFromGet(q))) };
  return openRowsReader(tx, workspaceId, baseId, q);
}
