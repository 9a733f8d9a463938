import type { Tx } from "../../db/database.ts";
import { appError } from "../../errors.ts";
import { unstorableText } from "../../text.ts";
import { loadBase, loadColumns } from "../base-context.ts";
import { parsed } from "../../db/json.ts";
import { cellsOfRow, openRowsReader, statesOf } from "./read.ts";
import { rowJson } from "./view.ts";
import { loadView } from "../views/index.ts";
import {
  cleanSearch,
  compileFilter,
  compileSort,
  decodeQueryCursor,
  encodeQueryCursor,
  LiteralParams,
  Params,
  parseFilter,
  parseSort,
  searchSql,
  sortFromQueryText,
  sqlId,
  type Cursor,
  type FilterNode,
  type RowsQueryInput,
} from "../query/index.ts";

// Query Rows: one page of the rows that match a filter and a search, in a typed sort order. All of
// it runs in the database (filter, search, sort, count, paging); nothing is filtered here.

export const DEFAULT_QUERY_LIMIT = 100;

type SortKeys = Record<`k${number}`, string | null>;
export type QueryRawRow = { id: string; seq: bigint; values: unknown; cells?: unknown } & SortKeys;

export type RowsQuerySpec = Pick<RowsQueryInput, "filter" | "sort" | "search" | "viewId">;

/**
 * A query checked against the base once (columns, view, filter, sort, search), read in keyset
 * pages: Query Rows reads one page of it, an export reads every page in turn.
 */
export async function prepareRowsQuery(tx: Tx, workspaceId: string, baseId: string, q: RowsQuerySpec) {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const columns = await loadColumns(tx, baseCtx.sheetId);
  const view = q.viewId ? await loadView(tx, baseCtx.baseId, q.viewId) : undefined;

  const filters: FilterNode[] = [];
  if (view?.filter) filters.push(parseFilter(view.filter, columns, "view.filter"));
  if (q.filter !== undefined && q.filter !== null) filters.push(parseFilter(q.filter, columns));
  const sortKeys = q.sort ? parseSort(q.sort, columns) : parseSort(view?.sort ?? [], columns, "view.sort");
  const search = cleanSearch(q.search ?? view?.search ?? "");

  // Each statement numbers its own parameters: the WHERE's first, then the sort's and the page's.
  const whereOf = (p: Params) => {
    const where = [`r.sheet_id = ${sqlId(baseCtx.sheetId)}`, ...filters.map((f) => compileFilter(f, p))];
    if (search) where.push(searchSql(search, p));
    return where;
  };

  async function count(): Promise<number> {
    const p = new Params();
    const [{ n }] = await tx.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT count(*) AS n FROM rows r WHERE ${whereOf(p).join(" AND ")}`,
      ...p.values,
    );
    return Number(n);
  }

  /** The WHERE and ORDER BY of a page after `cursor`, and the cursor that follows a page's last row. */
  const keyset = (p: Params, cursor: Cursor | null) => {
    const where = whereOf(p);
    const sort = compileSort(sortKeys, p);
    if (cursor) where.push(sort.after(cursor, p));
    const cursorAt = (last: SortKeys & { seq: bigint | string }): Cursor => ({
      fingerprint: sort.fingerprint,
      keys: sortKeys.map((_, i) => last[`k${i}`] ?? null),
      seq: BigInt(last.seq),
    });
    return { where: where.join(" AND "), sort, cursorAt };
  };

  /** The `limit` rows after `cursor` (from the start when null) and `offset` more, and the cursor after them when more follow. */
  async function page(
    cursor: Cursor | null,
    limit: number,
    expand: boolean,
    offset = 0,
  ): Promise<{ rows: QueryRawRow[]; next: Cursor | null }> {
    const p = new Params();
    const { where, sort, cursorAt } = keyset(p, cursor);
    const take = `LIMIT ${p.add(limit + 1)}::int`;
    // A page at an offset is picked first and its select list computed after: PostgreSQL computes
    // it (the cells' subquery) for every row an OFFSET skips, 600,000 of them at 60% of a million.
    const source = offset
      ? `(SELECT r.* FROM rows r WHERE ${where} ORDER BY ${sort.orderBy} ${take} OFFSET ${p.add(offset)}::int) r`
      : `rows r WHERE ${where}`;
    const rows = await tx.$queryRawUnsafe<QueryRawRow[]>(
      `SELECT r.id, r.seq, r."values"${expand ? `, ${cellsOfRow()} AS cells` : ""}${sort.select}
       FROM ${source} ORDER BY ${sort.orderBy}${offset ? "" : ` ${take}`}`,
      ...p.values,
    );
    if (rows.length <= limit) return { rows, next: null };
    rows.length = limit;
    return { rows, next: cursorAt(rows[limit - 1]) };
  }

  /**
   * As `page`, but each row is one text, computed in SQL by `line` (an expression over `r`), and the
   * page arrives joined by `separator` in a single value: an export formats rows there, and one
   * value per page costs the client far less than one per row.
   */
  async function linesPage(
    cursor: Cursor | null,
    limit: number,
    line: string,
    separator: string,
  ): Promise<{ text: string; rows: number; next: Cursor | null }> {
    const p = new Params();
    const { where, sort, cursorAt } = keyset(p, cursor);
    const sep = `${p.add(separator)}::text`;
    const n = `${p.add(limit)}::int`;
    const lastKeys = sortKeys.map((_, i) => `, max(t.k${i}) FILTER (WHERE t.ord = ${n}) AS k${i}`).join("");
    const [page] = await tx.$queryRawUnsafe<({ text: string | null; n: number; seq: bigint | null } & SortKeys)[]>(
      `SELECT string_agg(t.line, ${sep} ORDER BY t.ord) FILTER (WHERE t.ord <= ${n}) AS text, count(*)::int AS n,
         max(t.seq) FILTER (WHERE t.ord = ${n}) AS seq${lastKeys}
       FROM (SELECT ${line} AS line, r.seq${sort.select}, row_number() OVER (ORDER BY ${sort.orderBy}) AS ord
             FROM rows r WHERE ${where} ORDER BY ${sort.orderBy} LIMIT ${n} + 1) t`,
      ...p.values,
    );
    const next = page.n > limit ? cursorAt({ ...page, seq: page.seq! }) : null;
    return { text: page.text ?? "", rows: Math.min(page.n, limit), next };
  }

  /**
   * Every row's `line` followed by `separator`, in the query's order, as one statement with its
   * values written in (COPY takes no parameters): one statement reads one snapshot, unlike pages.
   */
  function linesStatement(line: string, separator: string): string {
    const p = new LiteralParams();
    const { where, sort } = keyset(p, null);
    return `SELECT ${line} || ${p.add(separator)}::text FROM rows r WHERE ${where} ORDER BY ${sort.orderBy}`;
  }

  return { baseCtx, columns, view, count, page, linesPage, linesStatement };
}

export type PreparedRowsQuery = Awaited<ReturnType<typeof prepareRowsQuery>>;

export async function queryRows(tx: Tx, workspaceId: string, baseId: string, q: RowsQueryInput) {
  const query = await prepareRowsQuery(tx, workspaceId, baseId, q);
  const total = q.count ? await query.count() : undefined;
  const { rows, next } = await query.page(
    q.cursor ? decodeQueryCursor(q.cursor) : null,
    q.limit ?? DEFAULT_QUERY_LIMIT,
    Boolean(q.expand),
    q.offset,
  );
  return {
    rows: rows.map((r) =>
      rowJson(
        query.columns,
        { id: r.id, values: parsed(r.values) },
        Boolean(q.expand),
        q.expand ? statesOf(r.cells) : undefined,
      ),
    ),
    nextCursor: next ? encodeQueryCursor(next) : null,
    ...(total !== undefined ? { total } : {}),
  };
}

export interface RowsGetQuery {
  expand: boolean;
  limit?: number;
  cursor?: string;
  offset?: number;
  filter?: string;
  sort?: string;
  search?: string;
  count: boolean;
  viewId?: string;
}

/** Whether Get Rows was given any query option (then it answers one page, as Query Rows). */
export const isQueryGet = (q: RowsGetQuery) =>
  q.filter !== undefined || q.sort !== undefined || q.search !== undefined || q.count || q.viewId !== undefined;

/** Get Rows' query parameters as a Query Rows body: `filter` is URL-encoded JSON, `sort` is `-Employees,Company`. */
export function queryFromGet(q: RowsGetQuery): RowsQueryInput {
  let filter: unknown;
  if (q.filter !== undefined) {
    try {
      filter = JSON.parse(q.filter);
    } catch {
      throw appError("invalid_filter", "filter is a JSON filter tree, URL-encoded (at filter).", { path: "filter" });
    }
    // JSON escapes can spell what the query string itself may not carry (\u0000).
    const bad = unstorableText(filter);
    if (bad)
      throw appError("invalid_filter", `${bad.problem} (at filter.${bad.path.join(".")})`, {
        path: ["filter", ...bad.path].join("."),
      });
  }
  return {
    filter,
    sort: q.sort !== undefined ? sortFromQueryText(q.sort) : undefined,
    search: q.search,
    viewId: q.viewId,
    limit: q.limit,
    cursor: q.cursor,
    offset: q.offset,
    expand: q.expand,
    count: q.count,
  };
}

/** Get Rows: with query options one page as Query Rows answers it, otherwise every row (streamed) or a plain page. */
export async function readRows(tx: Tx, workspaceId: string, baseId: string, q: RowsGetQuery) {
  if (isQueryGet(q)) return { kind: "page" as const, ...(await queryRows(tx, workspaceId, baseId, queryFromGet(q))) };
  return openRowsReader(tx, workspaceId, baseId, q);
}
