import type { Cell } from "../db/generated/client.ts";
import type { ColumnRecord } from "./column-model.ts";

export interface CellMetadata {
  sources: string[] | null;
  additionalDetails: string | null;
  confidenceScore: number | null;
  suppliedByUser?: boolean;
  /** The excerpt of each source the answer was grounded on, by source URL. */
  excerpts?: Record<string, string>;
}

export type CellState = Pick<Cell, "status" | "errorCode" | "errorMessage" | "metadata" | "stale">;

export interface ExpandedCell {
  value: string;
  metadata?: CellMetadata;
  status?: string;
  error?: { code: string; message: string };
  stale?: boolean;
}

/** The expanded form (spec §2.3), with our documented additions: status, error and stale. A cancelled cell carries error.code "cancelled". */
export function expandCell(column: Pick<ColumnRecord, "isAiEnabled">, value: string, cell: CellState | undefined): ExpandedCell {
  if (!column.isAiEnabled && !cell) return { value };
  if (!cell) return { value, status: "idle" };
  const meta = (cell.metadata ?? {}) as Partial<CellMetadata>;
  const out: ExpandedCell = {
    value,
    metadata: {
      sources: meta.sources ?? null,
      additionalDetails: meta.additionalDetails ?? null,
      confidenceScore: meta.confidenceScore ?? null,
      ...(meta.suppliedByUser ? { suppliedByUser: true } : {}),
      ...(meta.excerpts ? { excerpts: meta.excerpts } : {}),
    },
    status: cell.status,
  };
  if (cell.status === "error" || cell.status === "cancelled") out.error = { code: cell.errorCode ?? "internal_error", message: cell.errorMessage ?? "" };
  if (cell.stale) out.stale = true;
  return out;
}

export const userSuppliedMetadata = (): CellMetadata => ({
  sources: null,
  additionalDetails: "Supplied by the user.",
  confidenceScore: null,
  suppliedByUser: true,
});
