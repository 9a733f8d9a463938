import type { Tx } from "../../db/database.ts";
import type { Work } from "../../db/work.ts";
import { userSuppliedMetadata } from "../cell-view.ts";
import { fromStatusSql, toStatusSql } from "./transitions.ts";
import type { CellRef } from "./types.ts";

// The request side of the cells table: cells queued to (re)run, values the user supplied, and
// values gone out of date. Queued cells are announced in the transaction (a queue engine writes
// their jobs there) and after it (the embedded engine wakes up).

// Every request to generate a cell again bumps its generation: an attempt still in flight for an
// older generation finds its result discarded, and credits are keyed by generation so nothing is
// charged twice.
const RESET = `generation = cells.generation + 1, attempts = 0, error_code = NULL, error_message = NULL,
  stale = false, lease_owner = NULL, lease_until = NULL, started_at = NULL, updated_at = now()`;

async function announceQueued(w: Work, refs: readonly CellRef[]): Promise<void> {
  if (refs.length === 0) return;
  await w.publish({ type: "cells.queued", refs });
  w.emit({ type: "work.available" });
}

/**
 * The AI cells of rows inserted in this transaction: pending ones to run (in `runId`), supplied
 * ones done.
 */
export async function insertCellsOfNewRows(
  w: Work,
  sheetId: string,
  cells: readonly (CellRef & { status: "done" | "pending" })[],
  runId: string | null,
): Promise<void> {
  if (cells.length === 0) return;
  await w.tx.$executeRawUnsafe(
    `INSERT INTO cells (row_id, column_id, sheet_id, status, metadata, finished_at, run_id)
     SELECT r, c, $3, s, CASE WHEN s = ${toStatusSql("supply")} THEN $5::jsonb END, CASE WHEN s = ${toStatusSql("supply")} THEN now() END,
       CASE WHEN s = ${toStatusSql("queue")} THEN $6 END
     FROM unnest($1::text[], $2::text[], $4::text[]) AS t(r, c, s)`,
    cells.map((c) => c.rowId),
    cells.map((c) => c.columnId),
    sheetId,
    cells.map((c) => c.status),
    JSON.stringify(userSuppliedMetadata()),
    runId,
  );
  await announceQueued(
    w,
    cells.filter((c) => c.status === "pending"),
  );
}

/**
 * Queues cells to (re)run in `runId`: they become pending, with a new generation. Call it before
 * the row's value is cleared: the value it had is kept, to be restored if the run is cancelled.
 */
export async function queueCells(w: Work, sheetId: string, refs: readonly CellRef[], runId: string): Promise<void> {
  if (refs.length === 0) return;
  await w.tx.$executeRawUnsafe(
    `INSERT INTO cells (row_id, column_id, sheet_id, status, available_at, run_id, previous_value)
     SELECT t.r, t.c, $3, ${toStatusSql("queue")}, now(), $4, NULLIF(rw."values"->>t.c, '')
     FROM unnest($1::text[], $2::text[]) AS t(r, c) JOIN rows rw ON rw.id = t.r
     ON CONFLICT (row_id, column_id) DO UPDATE SET status = ${toStatusSql("queue")}, metadata = NULL, finished_at = NULL,
       available_at = now(), run_id = excluded.run_id, input_hash = NULL,
       previous_value = CASE WHEN cells.status IN ('pending', 'running') THEN cells.previous_value ELSE excluded.previous_value END,
       previous_status = CASE WHEN cells.status IN ('pending', 'running') THEN cells.previous_status ELSE cells.status END, verified = false, ${RESET}
     WHERE ${fromStatusSql("queue")}`,
    refs.map((r) => r.rowId),
    refs.map((r) => r.columnId),
    sheetId,
    runId,
  );
  await announceQueued(w, refs);
}

/** Stores user-written values of AI cells as done and supplied by the user. */
export async function supplyCells(tx: Tx, sheetId: string, refs: readonly CellRef[]): Promise<void> {
  if (refs.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO cells (row_id, column_id, sheet_id, status, metadata, finished_at)
     SELECT r, c, $3, ${toStatusSql("supply")}, $4::jsonb, now() FROM unnest($1::text[], $2::text[]) AS t(r, c)
     ON CONFLICT (row_id, column_id) DO UPDATE SET status = ${toStatusSql("supply")}, metadata = $4::jsonb, finished_at = now(), ${RESET}
     WHERE ${fromStatusSql("supply")}`,
    refs.map((r) => r.rowId),
    refs.map((r) => r.columnId),
    sheetId,
    JSON.stringify(userSuppliedMetadata()),
  );
}

/** These finished cells were generated from inputs or settings that have changed since (not re-run). */
export async function markStale(tx: Tx, refs: readonly CellRef[]): Promise<void> {
  if (refs.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE cells SET stale = true, updated_at = now()
     WHERE (row_id, column_id) IN (SELECT * FROM unnest($1::text[], $2::text[])) AND status IN ('done', 'error', 'cancelled', 'skipped', 'not_found')`,
    refs.map((r) => r.rowId),
    refs.map((r) => r.columnId),
  );
}

/** The finished cells of a column with the hash each was generated from (null: not generated, or before hashes). */
export async function finishedCellsOfColumn(tx: Tx, columnId: string) {
  return tx.$queryRawUnsafe<{ row_id: string; input_hash: string | null; values: Record<string, string> }[]>(
    `SELECT c.row_id, c.input_hash, r."values" FROM cells c JOIN rows r ON r.id = c.row_id
     WHERE c.column_id = $1 AND c.status IN ('done', 'error', 'cancelled', 'skipped', 'not_found') AND NOT c.stale
       AND NOT COALESCE((c.metadata->>'suppliedByUser')::boolean, false)`,
    columnId,
  );
}

/**
 * The state, input hash and review of these rows' cells in these columns (Update Rows' rules:
 * the hash decides a re-run, a verified cell is kept), in one statement: every statement of a
 * request is a round trip to the embedded database's thread.
 */
export async function cellStates(tx: Tx, rowIds: readonly string[], columnIds: readonly string[]) {
  const states = new Map<string, { status: string; inputHash: string | null; verified: boolean }>();
  if (rowIds.length === 0 || columnIds.length === 0) return states;
  const rows = await tx.$queryRawUnsafe<
    { row_id: string; column_id: string; status: string; input_hash: string | null; verified: boolean }[]
  >(
    `SELECT row_id, column_id, status, input_hash, verified FROM cells WHERE row_id = ANY($1::text[]) AND column_id = ANY($2::text[])`,
    [...rowIds],
    [...columnIds],
  );
  for (const r of rows)
    states.set(`${r.row_id}:${r.column_id}`, { status: r.status, inputHash: r.input_hash, verified: r.verified });
  return states;
}
