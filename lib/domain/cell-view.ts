import { isGenerated } from "./fill/kinds.ts";
import type { Cell } from "../db/generated/client.ts";
import { calibrationOf, reviewThresholdOf, type ColumnRecord } from "./column-model.ts";
import { calibrate } from "./isotonic.ts";

export interface CellMetadata {
  sources: string[] | null;
  additionalDetails: string | null;
  confidenceScore: number | null;
  suppliedByUser?: boolean;
  /** The excerpt of each source the answer was grounded on, by source URL. */
  excerpts?: Record<string, string>;
  /** A reviewer corrected the value: what the model had answered. */
  aiValue?: string;
  /** The confidence mapped through the column's calibration (columns with 30 or more reviews). */
  calibratedConfidence?: number;
  /** HTTP and waterfall cells: each step tried, in order (docs/providers.md). */
  steps?: StepTrace[];
}

export const STEP_STATUSES = ["found", "cached", "not_found", "invalid", "error", "skipped"] as const;

/** One step of a generated cell: what it asked, how it ended, what it cost and how long it took. */
export interface StepTrace {
  step: number;
  kind: "http" | "tool" | "ai" | "formula";
  label?: string;
  /** The host, tool or model asked. */
  provider: string;
  status: (typeof STEP_STATUSES)[number];
  credits: number;
  ms: number;
  /** The URL asked, secret values replaced by their names. */
  url?: string;
  httpStatus?: number;
  error?: { code: string; message: string };
}

export type CellState = Pick<Cell, "status" | "errorCode" | "errorMessage" | "metadata" | "stale"> & {
  verified?: boolean;
  /** When a stored answer last really changed the value (history: cell.changed). */
  changedAt?: string | Date | null;
};

export interface ExpandedCell {
  value: string;
  metadata?: CellMetadata;
  status?: string;
  error?: { code: string; message: string };
  stale?: boolean;
  needsReview?: boolean;
  verified?: boolean;
  changedAt?: string;
}

/**
 * The expanded form (spec §2.3), with our documented additions: status, error and stale. A
 * cancelled cell carries error.code "cancelled"; a skipped one no error, its reason in metadata.
 */
export function expandCell(
  column: Pick<ColumnRecord, "isAiEnabled"> & Partial<Pick<ColumnRecord, "fill" | "columnOptions" | "calibration">>,
  value: string,
  cell: CellState | undefined,
): ExpandedCell {
  if (!isGenerated(column) && !cell) return { value };
  if (!cell) return { value, status: "idle", needsReview: false, verified: false };
  const meta = (cell.metadata ?? {}) as Partial<CellMetadata>;
  const fit = calibrationOf(column);
  const out: ExpandedCell = {
    value,
    metadata: {
      sources: meta.sources ?? null,
      additionalDetails: meta.additionalDetails ?? null,
      confidenceScore: meta.confidenceScore ?? null,
      ...(meta.suppliedByUser ? { suppliedByUser: true } : {}),
      ...(meta.excerpts ? { excerpts: meta.excerpts } : {}),
      ...(typeof meta.aiValue === "string" ? { aiValue: meta.aiValue } : {}),
      ...(Array.isArray(meta.steps) ? { steps: meta.steps } : {}),
      ...(fit && typeof meta.confidenceScore === "number"
        ? { calibratedConfidence: calibrate(fit, meta.confidenceScore) }
        : {}),
    },
    status: cell.status,
    needsReview: needsReview(
      cell,
      reviewThresholdOf({ columnOptions: column.columnOptions ?? {}, calibration: column.calibration }),
    ),
    verified: Boolean(cell.verified),
  };
  if (cell.status === "error" || cell.status === "cancelled")
    out.error = { code: cell.errorCode ?? "internal_error", message: cell.errorMessage ?? "" };
  if (cell.stale) out.stale = true;
  if (cell.changedAt) out.changedAt = new Date(cell.changedAt).toISOString();
  return out;
}

export const userSuppliedMetadata = (): CellMetadata => ({
  sources: null,
  additionalDetails: "Supplied by the user.",
  confidenceScore: null,
  suppliedByUser: true,
});

/** The rule of needsReviewSql (query/sql.ts), for one cell already read. */
export function needsReview(cell: CellState, threshold: number): boolean {
  if (cell.stale) return true;
  if (cell.verified) return false;
  const confidence = (cell.metadata as Partial<CellMetadata> | null)?.confidenceScore;
  return (
    cell.status === "error" || (cell.status === "done" && typeof confidence === "number" && confidence < threshold)
  );
}
