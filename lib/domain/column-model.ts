import type { Column } from "../db/generated/client.ts";

export type ColumnRecord = Column;

export const TOOL_NAMES = ["web-search", "scrape-url", "file-analysis", "email-enrichment"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

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
}

export function toColumnView(c: ColumnRecord): ColumnView {
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

export function reviewThresholdOf(c: Pick<ColumnRecord, "columnOptions">): number {
  const t = ((c.columnOptions ?? {}) as Record<string, unknown>).reviewThreshold;
  return typeof t === "number" && t >= 0 && t <= 1 ? t : DEFAULT_REVIEW_THRESHOLD;
}
