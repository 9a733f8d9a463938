import type { Tx } from "../db/database.ts";
import { appError } from "../errors.ts";
import { loadBase, loadColumns } from "./bases.ts";
import { rowJson, standardRowWriter, type RowValues, type ViewColumn } from "./row-view.ts";
import type { CellState } from "./cell-view.ts";
import type { ColumnRecord } from "./column-model.ts";

const BATCH = 2_000;

type RawRow = { id: string; seq: bigint; values: unknown };

async function cellStates(tx: Tx, rowIds: string[]): Promise<Map<string, Map<string, CellState>>> {
  const byRow = new Map<string, Map<string, CellState>>();
  if (rowIds.length === 0) return byRow;
  const cells = await tx.cell.findMany({
    where: { rowId: { in: rowIds } },
    select: { rowId: true, columnId: true, status: true, errorCode: true, errorMessage: true, metadata: true, stale: true },
  });
  for (const c of cells) {
    let m = byRow.get(c.rowId);
    if (!m) byRow.set(c.rowId, (m = new Map()));
    m.set(c.columnId, c);
  }
  return byRow;
}

/**
 * Get Row. The base, the row and the columns come in one statement: this is the endpoint that
 * is called per row under load, and each extra round trip costs a visible share of its rate.
 */
export async function getRow(tx: Tx, workspaceId: string, baseId: string, rowId: string, expand: boolean) {
  const [hit] = await tx.$queryRawUnsafe<{ row_id: string | null; values: unknown; columns: ViewColumn[] | null }[]>(
    `SELECT r.id AS row_id, r."values",
       (SELECT json_agg(json_build_object('id', c.id, 'name', c.name, 'isAiEnabled', c.is_ai_enabled) ORDER BY c.position)
          FROM columns c WHERE c.sheet_id = s.id) AS columns
     FROM bases b JOIN sheets s ON s.base_id = b.id LEFT JOIN rows r ON r.sheet_id = s.id AND r.id = $3
     WHERE b.id = $1 AND b.workspace_id = $2`,
    baseId,
    workspaceId,
    rowId,
  );
  if (!hit) throw appError("base_not_found", `No base "${baseId}" in this workspace.`);
  if (!hit.row_id) throw appError("row_not_found", `No row "${rowId}" in this base.`);
  const columns = typeof hit.columns === "string" ? (JSON.parse(hit.columns) as ViewColumn[]) : (hit.columns ?? []);
  const states = expand ? (await cellStates(tx, [hit.row_id])).get(hit.row_id) : undefined;
  return rowJson(columns, { id: hit.row_id, values: typeof hit.values === "string" ? JSON.parse(hit.values) : hit.values }, expand, states);
}

const selectRows = (tx: Tx, sheetId: string, afterSeq: bigint, limit: number) =>
  tx.$queryRawUnsafe<RawRow[]>(`SELECT id, seq, "values" FROM rows WHERE sheet_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, sheetId, afterSeq, limit);

/** One batch of rows in insertion order after `afterSeq`, serialised as the API shows them. */
export async function readRowBatch(tx: Tx, sheetId: string, columns: readonly ColumnRecord[], afterSeq: bigint, limit: number, expand: boolean) {
  const rows = await selectRows(tx, sheetId, afterSeq, limit);
  const states = expand ? await cellStates(tx, rows.map((r) => r.id)) : undefined;
  return {
    rows: rows.map((r) => rowJson(columns, r, expand, states?.get(r.id))),
    lastSeq: rows.length > 0 ? rows[rows.length - 1].seq : afterSeq,
    full: rows.length === limit,
  };
}

export const encodeCursor = (seq: bigint) => Buffer.from(`s:${seq}`).toString("base64url");

function decodeCursor(cursor: string): bigint {
  const m = /^s:(\d{1,19})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!m) throw appError("invalid_query", "cursor is not a cursor this API returned.");
  return BigInt(m[1]);
}

export interface RowsQuery {
  expand: boolean;
  limit?: number;
  cursor?: string;
}

/**
 * Get Rows. Without paging it streams every row (spec §4.1) batch by batch, so memory stays flat
 * however large the base; with limit/cursor it returns one page and `nextCursor`.
 * The base is checked before the first byte, so a 404 is still a proper error response.
 */
export async function openRowsReader(tx: Tx, workspaceId: string, baseId: string, q: RowsQuery) {
  const ctx = await loadBase(tx, workspaceId, baseId);
  const columns = await loadColumns(tx, ctx.sheetId);
  const start = q.cursor ? decodeCursor(q.cursor) : 0n;
  if (q.limit !== undefined || q.cursor !== undefined) {
    const page = await readRowBatch(tx, ctx.sheetId, columns, start, q.limit ?? 1000, q.expand);
    return { kind: "page" as const, rows: page.rows, nextCursor: page.full ? encodeCursor(page.lastSeq) : null };
  }
  const write = standardRowWriter(columns);
  async function* chunks(): AsyncGenerator<string> {
    yield '{"rows":[';
    let after = start;
    let first = true;
    for (;;) {
      let body: string;
      let full: boolean;
      if (q.expand) {
        const batch = await readRowBatch(tx, ctx.sheetId, columns, after, BATCH, true);
        body = batch.rows.map((r) => JSON.stringify(r)).join(",");
        ({ full, lastSeq: after } = batch);
      } else {
        const rows = await selectRows(tx, ctx.sheetId, after, BATCH);
        body = rows.map((r) => write(r.id, (r.values ?? {}) as RowValues)).join(",");
        full = rows.length === BATCH;
        if (rows.length > 0) after = rows[rows.length - 1].seq;
      }
      if (body) {
        yield first ? body : "," + body;
        first = false;
      }
      if (!full) break;
    }
    yield "]}";
  }
  return { kind: "stream" as const, chunks: chunks() };
}
