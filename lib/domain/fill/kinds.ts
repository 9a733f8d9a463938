// The kinds of fill, and which of them the engine generates: small enough for the browser to import.

export const FILL_KINDS = ["formula", "http", "waterfall"] as const;
export type FillKind = (typeof FILL_KINDS)[number];

/** Kinds whose values the engine generates per cell, with a status, a queue and credits. */
export const GENERATED_FILL_KINDS: readonly FillKind[] = ["http", "waterfall"];

/**
 * Whether the engine generates this column's cells: an AI column, an HTTP column or a waterfall.
 * Such a column has a cell per row, with a status, a queue, runs and credits; a formula does not.
 */
export const isGenerated = (c: { isAiEnabled: boolean; fill?: unknown }): boolean =>
  c.isAiEnabled || GENERATED_FILL_KINDS.includes((c.fill as { kind?: FillKind } | null | undefined)?.kind as FillKind);
