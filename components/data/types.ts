// The API's shapes as the UI sees them (spec §2, with the expanded-cell additions).

export interface ColumnView {
  id: string;
  index: number;
  name: string;
  type: string;
  isAiEnabled: boolean;
  isPrimary: boolean;
  inputColumnIds: string[];
  tools: { name: string }[];
  instructions: string;
  columnOptions: Record<string, unknown>;
}

export interface BaseStructure {
  sheet: { id: string; baseId: string; name: string };
  sheetColumns: ColumnView[];
  primaryColumn: ColumnView | null;
}

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

export interface CellMetadata {
  sources: string[] | null;
  additionalDetails: string | null;
  confidenceScore: number | null;
  suppliedByUser?: boolean;
  excerpts?: Record<string, string>;
}

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
