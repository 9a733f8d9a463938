import type { Column } from "../db/generated/client.ts";
import { rawThresholdFor, type CalibrationFit } from "./isotonic.ts";
import { fillOf, type Fill } from "./fill/schema.ts";

export type ColumnRecord = Column;

export { TOOL_NAMES, type ToolName } from "./tool-names.ts";

export const AUTO_RUN_MODES = ["always", "onInsert", "never"] as const;
export type AutoRunMode = (typeof AUTO_RUN_MODES)[number];

/** The spec's sheet column object (§2.5). */
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
  /** How the column fills itself (a formula); null when by hand or by the AI. */
  fill: Fill | null;
  /** The run condition of a generated column, columns by id; null when it runs for every row. */
  runIf: Record<string, unknown> | null;
}

export function toColumnView(c: ColumnRecord): ColumnView {
  const fill = fillOf(c);
  return {
    id: c.id,
    index: c.position,
    name: c.name,
    type: c.type,
    isAiEnabled: c.isAiEnabled,
    isPrimary: c.isPrimary,
    inputColumnIds: c.inputColumnIds,
    tools: c.tools.map((name) => ({ name })),
    instructions: c.instructions,
    columnOptions: (c.columnOptions ?? {}) as Record<string, unknown>,
    fill,
    runIf: (c.runIf ?? null) as Record<string, unknown> | null,
  };
}

export const columnOptionsOf = (c: ColumnRecord) => (c.columnOptions ?? {}) as Record<string, unknown>;

export function autoRunOf(c: ColumnRecord): AutoRunMode {
  const mode = columnOptionsOf(c).autoRun;
  return (AUTO_RUN_MODES as readonly unknown[]).includes(mode) ? (mode as AutoRunMode) : "always";
}

/** How column names are compared: Unicode NFC, case-insensitively, ignoring outer spaces. */
export const nameKey = (name: string) => name.normalize("NFC").trim().toLowerCase();

/** Done cells below this confidence need review (columnOptions.reviewThreshold, 0 to 1). */
export const DEFAULT_REVIEW_THRESHOLD = 0.7;

/** What the review threshold is compared with: the model's confidence, or its calibrated value. */
export const REVIEW_BY = ["model", "calibrated"] as const;

type ReviewSettings = Pick<ColumnRecord, "columnOptions"> & Partial<Pick<ColumnRecord, "calibration">>;

/** The column's threshold as set (columnOptions.reviewThreshold). */
export function statedReviewThreshold(c: Pick<ColumnRecord, "columnOptions">): number {
  const t = ((c.columnOptions ?? {}) as Record<string, unknown>).reviewThreshold;
  return typeof t === "number" && t >= 0 && t <= 1 ? t : DEFAULT_REVIEW_THRESHOLD;
}

export const reviewByOf = (c: Pick<ColumnRecord, "columnOptions">): (typeof REVIEW_BY)[number] =>
  ((c.columnOptions ?? {}) as Record<string, unknown>).reviewBy === "calibrated" ? "calibrated" : "model";

export const calibrationOf = (c: Partial<Pick<ColumnRecord, "calibration">>): CalibrationFit | null =>
  (c.calibration as CalibrationFit | null | undefined) ?? null;

/**
 * The model confidence below which a done cell needs review. With reviewBy "calibrated" and a
 * fitted column, the stated threshold applies to the calibrated value; the fit is monotone, so
 * that is a threshold on the model's confidence too, and the database filters on it as before.
 */
export function reviewThresholdOf(c: ReviewSettings): number {
  const stated = statedReviewThreshold(c);
  const fit = calibrationOf(c);
  return reviewByOf(c) === "calibrated" && fit ? rawThresholdFor(fit, stated) : stated;
}
