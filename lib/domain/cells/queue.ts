import type { Tx } from "../../db/database.ts";
import type { Work } from "../../db/work.ts";
import { userSuppliedMetadata } from "../cell-view.ts";
import { fromStatusSql, toStatusSql } from "./transitions.ts";
import type { CellRef } from "./types.ts";

// The request side of the cells table: cells queued to (re)run, values the user supplied, and
// values gone out of date. Queued cells are announced in the transaction (a queue engine writes
// their jobs there) and after it (the embedded engine wakes up).

// Every (re)run request bumps the generation: a run still in flight for an older generation
// finds its result discarded, and credits are keyed by generation so nothing is charged twice.
const RESET = `generation = cells.generation + 1, attempts = 0, error_code = NULL, error_message = NULL,
  stale = false, lease_owner = NULL, lease_until = NULL, started_at = NULL, updated_at = now()`;

async function announceQueued(w: Work, refs: readonly CellRef[]): Promise<void> {
  if (refs.length === 0) return;
  await w.publish({ type: "cells.queued", refs });
  w.emit({ type: "work.available" });
}

/** The AI cells of rows inserted in this transaction: pending ones to run, supplied ones done. */
export async function insertCellsOfNewRows(w: Work, sheetId: string, cells: readonly (CellRef & { status: "done" | "pending" })[]): Promise<void> {
  if (cells.length === 0) return;
  await w.tx.$executeRawUnsafe(
    `INSERT INTO cells (row_id, column_id, sheet_id, status, metadata, finished_at)
     SELECT r, c, $3, s, CASE WHEN s = ${toStatusSql("supply")} THEN $5::jsonb END, CASE WHEN s = ${toStatusSql("supply")} THEN now() END
     FROM unnest($1::text[], $2::text[], $4::text[]) AS t(r, c, s)`,
    cells.map((c) => c.rowId),
    cells.map((c) => c.columnId),
    sheetId,
    cells.map((c) => c.status),
    JSON.stringify(userSuppliedMetadata()),
  );
  await announceQueued(w, cells.filter((c) => c.status === "pending"));
}

/** Queues cells to (re)run: they become pending, with a new generation. */
export async function queueCells(w: Work, sheetId: string, refs: readonly CellRef[]): Promise<void> {
  if (refs.length === 0) return;
  await w.tx.$executeRawUnsafe(
    `INSERT INTO cells (row_id, column_id, sheet_id, status, available_at)
     SELECT r, c, $3, ${toStatusSql("queue")}, now() FROM unnest($1::text[], $2::text[]) AS t(r, c)
     ON CONFLICT (row_id, column_id) DO UPDATE SET status = ${toStatusSql("queue")}, metadata = NULL, finished_at = NULL,
       available_at = now(), verified = false, ${RESET}
     WHERE ${fromStatusSql("queue")}`,
    refs.map((r) => r.rowId),
    refs.map((r) => r.columnId),
    sheetId,
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

/** Verified cells whose inputs changed: they keep their value, and are out of date (never re-run unless forced). */
export async function markCellsStale(tx: Tx, refs: readonly CellRef[]): Promise<void> {
  if (refs.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE cells SET stale = true, updated_at = now() FROM unnest($1::text[], $2::text[]) AS t(r, c)
     WHERE cells.row_id = t.r AND cells.column_id = t.c`,
    refs.map((r) => r.rowId),
    refs.map((r) => r.columnId),
  );
}

/** The column's AI settings changed: its finished cells are out of date (not re-run). */
export async function markColumnStale(tx: Tx, columnId: string): Promise<void> {
  await tx.$executeRawUnsafe(`UPDATE cells SET stale = true WHERE column_id = $1 AND status IN ('done', 'error')`, columnId);
}
