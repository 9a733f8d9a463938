import type { Read, Tx } from "../../db/database.ts";
import { parsed } from "../../db/json.ts";
import { appError } from "../../errors.ts";
import { loadBase, loadColumns } from "../base-context.ts";
import { rowJson, standardRowSql, type ViewColumn } from "./view.ts";
import type { CellState } from "../cell-view.ts";
import type { ColumnRecord } from "../column-model.ts";

/** A streamed batch holds at most this many rows, and this many bytes of values as stored. */
const BATCH = 2_000;
const BATCH_BYTES = 4 * 1024 * 1024;
/**
 * A batch of standard rows arrives as one text, and costs the server's thread no work per row:
 * larger batches are fewer round trips. The byte bound is the same, so memory stays flat.
 */
const TEXT_BATCH = 10_000;

type RawRow = { id: string; seq: bigint; values: unknown };

// Expanded reads take each row's cell states in the same statement as its values: one statement
// is one snapshot, so a row is never seen half way through a commit (status done, value missing).
export const cellsOfRow = (
  row = "r",
) => `(SELECT json_agg(json_build_object('columnId', c.column_id, 'status', c.status, 'errorCode', c.error_code,
    'errorMessage', c.error_message, 'metadata', c.metadata, 'stale', c.stale, 'verified', c.verified, 'changedAt', c.changed_at)) FROM cells c WHERE c.row_id = ${row}.id)`;

type RawCell = CellState & { columnId: string };

export function statesOf(raw: unknown): Map<string, CellState> {
  return new Map((parsed<RawCell[] | null>(raw) ?? []).map((c) => [c.columnId, c]));
}

/**
 * The cell states of these rows, by row, in one statement: a write that answers expanded reads
 * what it has just left (queued AI cells pending, supplied ones done) in its own transaction.
 */
export async function cellStatesOfRows(
  tx: Tx,
  rowIds: readonly string[],
): Promise<Map<string, Map<string, CellState>>> {
  const found = await tx.$queryRawUnsafe<{ id: string; cells: unknown }[]>(
    `SELECT r.id, ${cellsOfRow()} AS cells FROM rows r WHERE r.id = ANY($1::text[])`,
    [...rowIds],
  );
  return new Map(found.map((r) => [r.id, statesOf(r.cells)]));
}

/**
 * Get Row. The base, the row and the columns come in one statement, read through the driver
 * (`Database.read`): this is the endpoint that is called per row under load, and each extra round
 * trip, or Prisma's mapping of the answer, costs a visible share of its rate.
 */
export async function getRow(read: Read, workspaceId: string, baseId: string, rowId: string, expand: boolean) {
  const [hit] = await read<{ row_id: string | null; values: unknown; columns: ViewColumn[] | null; cells?: unknown }>(
    `SELECT r.id AS row_id, r."values",${expand ? ` ${cellsOfRow()} AS cells,` : ""}
       (SELECT json_agg(json_build_object('id', c.id, 'name', c.name, 'isAiEnabled', c.is_ai_enabled, 'fill', c.fill, 'columnOptions', c.column_options, 'calibration', c.calibration) ORDER BY c.position)
          FROM columns c WHERE c.sheet_id = s.id) AS columns
     FROM bases b JOIN sheets s ON s.base_id = b.id LEFT JOIN rows r ON r.sheet_id = s.id AND r.id = $3
     WHERE b.id = $1 AND b.workspace_id = $2`,
    [baseId, workspaceId, rowId],
  );
  if (!hit) throw appError("base_not_found", `No base "${baseId}" in this workspace.`);
  if (!hit.row_id) throw appError("row_not_found", `No row "${rowId}" in this base.`);
  const columns = typeof hit.columns === "string" ? (JSON.parse(hit.columns) as ViewColumn[]) : (hit.columns ?? []);
  const states = expand ? statesOf(hit.cells) : undefined;
  return rowJson(columns, { id: hit.row_id, values: parsed(hit.values) }, expand, states);
}

const selectRows = (tx: Tx, sheetId: string, afterSeq: bigint, limit: number, expand: boolean, offset: number) =>
  tx.$queryRawUnsafe<(RawRow & { cells?: unknown })[]>(
    `SELECT r.id, r.seq, r."values"${expand ? `, ${cellsOfRow()} AS cells` : ""}
     FROM rows r WHERE r.sheet_id = $1 AND r.seq > $2 ORDER BY r.seq LIMIT $3 OFFSET $4`,
    sheetId,
    afterSeq,
    limit,
    offset,
  );

/**
 * The stream's next batch after `$2`: up to `rows` rows, cut once their values pass BATCH_BYTES
 * (`$3`; always at least one row), so that a base of long texts is read in smaller batches, not larger ones.
 */
const batchWithin = (rows: number) =>
  `SELECT r.id, r.seq, r."values", sum(pg_column_size(r."values")) OVER (ORDER BY r.seq) AS upto, row_number() OVER (ORDER BY r.seq) AS n
   FROM rows r WHERE r.sheet_id = $1 AND r.seq > $2 ORDER BY r.seq LIMIT ${rows}`;

const selectExpandedBatch = (tx: Tx, sheetId: string, afterSeq: bigint) =>
  tx.$queryRawUnsafe<(RawRow & { cells: unknown })[]>(
    `SELECT t.id, t.seq, t."values", ${cellsOfRow("t")} AS cells
     FROM (${batchWithin(BATCH)}) t WHERE t.n = 1 OR t.upto <= $3 ORDER BY t.seq`,
    sheetId,
    afterSeq,
    BATCH_BYTES,
  );

/** The same batch of standard rows as one JSON text (rows joined by commas), with its count and last seq. */
const selectTextBatch = (tx: Tx, sheetId: string, afterSeq: bigint, line: string) =>
  tx.$queryRawUnsafe<{ text: string | null; n: number; seq: bigint | null }[]>(
    `SELECT string_agg(t.line, ',' ORDER BY t.seq) AS text, count(*)::int AS n, max(t.seq) AS seq
     FROM (SELECT ${line} AS line, r.seq FROM (${batchWithin(TEXT_BATCH)}) r WHERE r.n = 1 OR r.upto <= $3) t`,
    sheetId,
    afterSeq,
    BATCH_BYTES,
  );

/**
 * One page of rows in insertion order, `offset` rows past `afterSeq`, serialised as the API shows
 * them. One row more than the page is read, so that a page is said to have more only when it has.
 */
async function readRowPage(
  tx: Tx,
  sheetId: string,
  columns: readonly ColumnRecord[],
  afterSeq: bigint,
  limit: number,
  expand: boolean,
  offset: number,
) {
  const read = await selectRows(tx, sheetId, afterSeq, limit + 1, expand, offset);
  const rows = read.slice(0, limit);
  return {
    rows: rows.map((r) => rowJson(columns, r, expand, expand ? statesOf(r.cells) : undefined)),
    next: read.length > limit ? encodeCursor(rows[rows.length - 1].seq) : null,
  };
}

export const encodeCursor = (seq: bigint) => Buffer.from(`s:${seq}`).toString("base64url");

function decodeCursor(cursor: string): bigint {
  const m = /^s:(\d{1,19})$/.exec(Buffer.from(cursor, "base64url").toString());
  // Past bigint's range a crafted seq would fail its cast in the database.
  if (!m || BigInt(m[1]) > 2n ** 63n - 1n)
    throw appError("invalid_cursor", "cursor is not a cursor this API returned.");
  return BigInt(m[1]);
}

export interface RowsQuery {
  expand: boolean;
  limit?: number;
  cursor?: string;
  offset?: number;
}

/**
 * Get Rows. Without paging it streams every row (spec §4.1) batch by batch, so memory stays flat
 * however large the base; with limit, cursor or offset it returns one page and `nextCursor`.
 * The base is checked before the first byte, so a 404 is still a proper error response.
 */
export async function openRowsReader(tx: Tx, workspaceId: string, baseId: string, q: RowsQuery) {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const columns = await loadColumns(tx, baseCtx.sheetId);
  const start = q.cursor ? decodeCursor(q.cursor) : 0n;
  if (q.limit !== undefined || q.cursor !== undefined || q.offset !== undefined) {
    const page = await readRowPage(tx, baseCtx.sheetId, columns, start, q.limit ?? 1000, q.expand, q.offset ?? 0);
    return { kind: "page" as const, rows: page.rows, nextCursor: page.next };
  }
  const chunks = q.expand
    ? expandedChunks(tx, baseCtx.sheetId, columns, start)
    : standardChunks(tx, baseCtx.sheetId, columns, start);
  return { kind: "stream" as const, chunks };
}

/** Every expanded row after `start`, batch by batch: cell states are rendered here, not in SQL. */
async function* expandedChunks(tx: Tx, sheetId: string, columns: readonly ColumnRecord[], start: bigint) {
  yield '{"rows":[';
  let after = start;
  let first = true;
  for (;;) {
    const rows = await selectExpandedBatch(tx, sheetId, after);
    if (rows.length === 0) break;
    after = rows[rows.length - 1].seq;
    const body = rows.map((r) => JSON.stringify(rowJson(columns, r, true, statesOf(r.cells)))).join(",");
    yield first ? body : `,${body}`;
    first = false;
  }
  yield "]}";
}

/**
 * Every standard row after `start`, each batch one text the database wrote. The next batch is
 * asked for before this one is handed on, so the database formats it while the server's thread
 * sends this one (PGlite's thread, or PostgreSQL's process, works beside it).
 */
async function* standardChunks(tx: Tx, sheetId: string, columns: readonly ColumnRecord[], start: bigint) {
  const line = standardRowSql(columns);
  // Started now (a Prisma promise runs once it is awaited or caught), and never an unhandled
  // rejection while the client still reads the batch before it: it is awaited in its turn.
  const ahead = (after: bigint) => {
    const batch = selectTextBatch(tx, sheetId, after, line);
    batch.catch(() => undefined);
    return batch;
  };
  let next = ahead(start);
  yield '{"rows":[';
  let first = true;
  for (;;) {
    const [batch] = await next;
    if (batch.n === 0 || batch.seq === null) break;
    next = ahead(batch.seq);
    yield first ? batch.text! : `,${batch.text!}`;
    first = false;
  }
  yield "]}";
}
