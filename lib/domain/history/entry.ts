// One change of one cell, as the history stores it and as the API shows it. Stored entries use
// one-letter keys: a cell's entries repeat them, and every byte counts against the storage goal
// (history under twice the cells' own size).

export const DEFAULT_HISTORY_PAGE = 50;
export const MAX_HISTORY_PAGE = 200;

export const HISTORY_KINDS = ["answer", "edit", "import", "review", "formula", "output", "revert"] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/** A value and, for a generated cell, its status: what a cell held on one side of a change. */
export interface CellState {
  value: string;
  status?: string | null;
}

export interface StoredEntry {
  /** id */
  i: string;
  /** when (ISO 8601) */
  t: string;
  k: HistoryKind;
  /** the run that made the change */
  r?: string;
  /** the API key or user that made it (`key_…`, `usr_…`) */
  u?: string;
  /** the value before and after ("" for none) */
  b: string;
  v: string;
  /** the status before and after (generated cells) */
  bs?: string;
  vs?: string;
  /** sources and confidence of the value after */
  s?: string[];
  c?: number;
  /** why: an error code, a reviewer's action, or the model's verdict on a change */
  w?: string;
}

/** A change to record: the cell, both sides, and who made it. */
export interface CellChange {
  rowId: string;
  columnId: string;
  kind: HistoryKind;
  before: CellState;
  after: CellState & { sources?: readonly string[] | null; confidence?: number | null };
  runId?: string | null;
  actorId?: string | null;
  reason?: string | null;
}

export interface HistoryEntryView {
  id: string;
  rowId: string;
  columnId: string;
  at: string;
  kind: HistoryKind;
  actor: { runId: string | null; actorId: string | null };
  before: { value: string; status: string | null };
  after: { value: string; status: string | null; sources: string[] | null; confidence: number | null };
  reason: string | null;
}

/** Sources kept per entry: the cell keeps its excerpts, the history only where they came from. */
const MAX_SOURCES = 10;

export function storedEntry(id: string, at: string, c: CellChange): StoredEntry {
  const e: StoredEntry = { i: id, t: at, k: c.kind, b: c.before.value, v: c.after.value };
  if (c.runId) e.r = c.runId;
  if (c.actorId) e.u = c.actorId;
  if (c.before.status) e.bs = c.before.status;
  if (c.after.status) e.vs = c.after.status;
  if (c.after.sources && c.after.sources.length > 0) e.s = c.after.sources.slice(0, MAX_SOURCES);
  if (typeof c.after.confidence === "number") e.c = c.after.confidence;
  if (c.reason) e.w = c.reason;
  return e;
}

export const entryView = (rowId: string, columnId: string, e: StoredEntry): HistoryEntryView => ({
  id: e.i,
  rowId,
  columnId,
  at: e.t,
  kind: e.k,
  actor: { runId: e.r ?? null, actorId: e.u ?? null },
  before: { value: e.b, status: e.bs ?? null },
  after: { value: e.v, status: e.vs ?? null, sources: e.s ?? null, confidence: e.c ?? null },
  reason: e.w ?? null,
});
