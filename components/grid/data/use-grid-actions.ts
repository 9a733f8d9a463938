"use client";
import { isGenerated } from "@/lib/domain/fill/kinds.ts";
import { useMemo } from "react";
import { api, ApiError, basePath, errorMessage } from "../../data/api";
import type { ColumnView, RowRecord, RunEstimate, UpdateRowsResult } from "../../data/types";
import { useToast } from "../../ui/toast";
import { plural } from "../../ui/format";
import { parseTsv } from "../table/tsv";
import type { RowLoader } from "./row-loader";

// What the grid does to rows, each through the public row API. Writes ask for the rows back
// expanded (expand=true), so the cells' statuses are the server's, and hand them to the loader,
// the row store's one writer; the live event that follows refetches the rows as they move on.

const CHUNK = 10_000;

export interface RunRequest {
  columnIds?: string[];
  rowIds?: string[];
  onlyEmpty?: boolean;
  onlyStale?: boolean;
  statuses?: ("idle" | "done" | "error" | "cancelled" | "skipped" | "not_found")[];
  maxCredits?: number;
}

/** A paste or import that would queue this many AI cells asks first. */
export const CONFIRM_RUN_ABOVE = 100;

/** Asks before a large write queues AI cells: null to stop, or an optional credit cap. */
export type ConfirmRun = (cells: number) => Promise<{ maxCredits?: number } | null>;

/** What Add Rows and Update Rows answer with expand=true. */
interface ExpandedWrite {
  rows: RowRecord[];
  runId: string | null;
}
type ExpandedUpdate = ExpandedWrite & Pick<UpdateRowsResult, "errors">;

/** How many AI cells adding these rows would queue: absent or empty, in a column that runs on insert. */
function aiCellsOf(rows: readonly Record<string, string>[], columns: readonly ColumnView[]): number {
  const ai = columns.filter((c) => isGenerated(c) && (c.columnOptions as { autoRun?: string }).autoRun !== "never");
  return rows.reduce((n, r) => n + ai.filter((c) => (r[c.name] ?? "") === "").length, 0);
}

function addRowsError(e: unknown): string {
  if (e instanceof ApiError && e.code === "validation_failed") {
    const errors = (e.details as { errors?: { rowIndex: number; message: string }[] } | undefined)?.errors ?? [];
    const first = errors.slice(0, 3).map((x) => `row ${x.rowIndex + 1}: ${x.message}`);
    if (first.length)
      return `Nothing was added. ${first.join("; ")}${errors.length > 3 ? ` (and ${errors.length - 3} more)` : ""}.`;
  }
  return errorMessage(e);
}

export function useGridActions(
  baseId: string,
  loader: RowLoader | null,
  columns: ColumnView[],
  confirmRun?: ConfirmRun,
) {
  const toast = useToast();
  return useMemo(() => {
    const base = basePath(baseId);

    /** Writes one cell. Resolves to the API's error message for that row, or null on success. */
    async function updateCell(rowId: string, column: ColumnView, value: string): Promise<string | null> {
      try {
        const res = await api<ExpandedUpdate>(`${base}/update-rows?expand=true`, {
          body: { rows: [{ id: rowId, cells: { [column.name]: value } }] },
        });
        const errors = res.errors.filter((e) => e.rowId === rowId || e.rowId === null);
        if (errors.length) return errors.map((e) => e.message).join(" ");
        loader?.applyWrite(res.rows);
        return null;
      } catch (e) {
        return errorMessage(e);
      }
    }

    async function clearCells(rowIds: string[], targets: ColumnView[]): Promise<void> {
      // A formula column's value is computed, never written: clearing leaves it to its formula.
      const writable = targets.filter((c) => !c.fill);
      if (!rowIds.length || !writable.length) return;
      const blank = Object.fromEntries(writable.map((c) => [c.name, ""]));
      try {
        for (let i = 0; i < rowIds.length; i += CHUNK) {
          const res = await api<ExpandedUpdate>(`${base}/update-rows?expand=true`, {
            body: { rows: rowIds.slice(i, i + CHUNK).map((id) => ({ id, cells: blank })) },
          });
          loader?.applyWrite(res.rows);
          if (res.errors.length) toast.error(res.errors[0].message);
        }
      } catch (e) {
        toast.error(errorMessage(e));
      }
    }

    async function addRows(rows: Record<string, string>[]): Promise<string[]> {
      const ids: string[] = [];
      const queued = aiCellsOf(rows, columns);
      const ok = queued > CONFIRM_RUN_ABOVE && confirmRun ? await confirmRun(queued) : {};
      if (!ok) return ids;
      try {
        for (let i = 0; i < rows.length; i += CHUNK) {
          const res = await api<ExpandedWrite>(`${base}/add-rows?expand=true`, {
            body: { rows: rows.slice(i, i + CHUNK).map((cells) => ({ cells })) },
          });
          // Add Rows takes no cap: it is set on the run it started, before most of it has run.
          if (ok.maxCredits && res.runId)
            await api(`/api/v1/runs/${res.runId}/resume`, { body: { maxCredits: ok.maxCredits } });
          loader?.appended(res.rows);
          ids.push(...res.rows.map((r) => r.id));
        }
      } catch (e) {
        toast.error(ids.length ? `${plural(ids.length, "row")} added, then: ${addRowsError(e)}` : addRowsError(e));
      }
      return ids;
    }

    /**
     * Pasted TSV becomes new rows. A first line naming columns is a header; otherwise fields
     * map to columns from the focused column rightwards.
     */
    async function pasteRows(text: string, startColumn: number): Promise<string[]> {
      const lines = parseTsv(text);
      if (!lines.length) return [];
      const byName = new Map(columns.map((c) => [c.name.trim().toLowerCase(), c]));
      const header = lines[0].filter((f) => f.trim() !== "");
      const isHeader = lines.length > 1 && header.length > 0 && header.every((f) => byName.has(f.trim().toLowerCase()));
      const targets = isHeader
        ? lines[0].map((f) => byName.get(f.trim().toLowerCase()))
        : columns.slice(Math.max(0, startColumn), Math.max(0, startColumn) + lines[0].length);
      const data = isHeader ? lines.slice(1) : lines;
      const rows = data.map((fields) => {
        const cells: Record<string, string> = {};
        fields.forEach((f, i) => {
          const c = targets[i];
          if (c && !c.fill && f !== "") cells[c.name] = f;
        });
        return cells;
      });
      const ids = await addRows(rows);
      if (ids.length) toast.success(`Pasted ${plural(ids.length, "row")}.`);
      return ids;
    }

    async function deleteRows(rowIds: string[]): Promise<boolean> {
      try {
        for (let i = 0; i < rowIds.length; i += CHUNK) {
          const res = await api<{ deletedRowIds: string[] }>(`${base}/delete-rows`, {
            body: { rowIds: rowIds.slice(i, i + CHUNK) },
          });
          loader?.removed(res.deletedRowIds);
        }
        toast.success(`Deleted ${plural(rowIds.length, "row")}.`);
        return true;
      } catch (e) {
        toast.error(errorMessage(e));
        return false;
      }
    }

    const estimate = (req: RunRequest) => api<RunEstimate>(`${base}/run/estimate`, { body: req });

    async function run(req: RunRequest): Promise<void> {
      try {
        const res = await api<{ queued: number }>(`${base}/run`, { body: req });
        toast.success(
          res.queued
            ? `Queued ${plural(res.queued, "cell")} to run.`
            : "Nothing to run: those cells are already queued or running.",
        );
      } catch (e) {
        toast.error(e instanceof ApiError && e.status === 402 ? `Not enough credits: ${e.message}` : errorMessage(e));
      }
    }

    /** Reads rows again after a change made elsewhere than these actions (a value restored from history). */
    const refreshRows = (rowIds: string[]) => loader?.refresh(rowIds);

    return { baseId, updateCell, clearCells, addRows, pasteRows, deleteRows, estimate, run, refreshRows };
  }, [baseId, loader, columns, toast, confirmRun]);
}

export type GridActions = ReturnType<typeof useGridActions>;
