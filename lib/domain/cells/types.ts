export interface CellRef {
  rowId: string;
  columnId: string;
}

/** A cell's key in maps and sets. `lockRunsOf` builds the same key in SQL. */
export const cellKey = (c: CellRef) => `${c.rowId}:${c.columnId}`;

/** A cell a worker holds under a lease: what it needs to run it and to fence its outcome. */
export interface ClaimedCell extends CellRef {
  sheetId: string;
  generation: number;
  /** Attempts already made before this one. */
  attempts: number;
}

/** What one attempt cost, recorded with its outcome. */
export interface AttemptRecord {
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  costUsd?: number | null;
  /** Requests sent to the model in this attempt. */
  modelCalls?: number;
}
