// The API's shapes as the UI sees them (spec §2, with the expanded-cell additions).

// Type-only imports: the domain's own shapes, so the UI cannot drift from the API.
import type { ColumnView } from "@/lib/domain/column-model.ts";
import type { BaseStructure } from "@/lib/domain/bases.ts";
import type { CellMetadata } from "@/lib/domain/cell-view.ts";

export type { ColumnView, BaseStructure, CellMetadata };

export interface BaseSummary {
  baseId: string;
  name: string;
  rowCount: number;
  columnCount: number;
  settings: { lowConfidenceThreshold?: number } & Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export type CellStatus = "pending" | "running" | "done" | "error" | "idle";

export interface CellView {
  value: string;
  metadata?: CellMetadata;
  status?: CellStatus;
  error?: { code: string; message: string };
  stale?: boolean;
}

export interface RowRecord {
  id: string;
  cells: Record<string, CellView>;
}

export interface RowsPage {
  rows: RowRecord[];
  nextCursor: string | null;
}

export interface UpdateRowsResult {
  rows: { id: string; cells: Record<string, string> }[];
  errors: { rowId: string | null; column?: string; code: string; message: string }[];
}

export interface RunEstimate {
  cells: number;
  credits: number;
  balance: number | null;
}
