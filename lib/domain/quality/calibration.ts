import type { Tx } from "../../db/database.ts";
import { fitIsotonic } from "../isotonic.ts";
import { reviewLabels, withConfidence } from "./labels.ts";
import { MIN_LABELS } from "./stats.ts";

/**
 * Refits the calibration of these columns from their review history, in the transaction that
 * changed it: under MIN_LABELS labelled confidences a column has none.
 */
export async function refitCalibration(tx: Tx, columnIds: Iterable<string>): Promise<void> {
  for (const columnId of new Set(columnIds)) {
    const labelled = withConfidence(await reviewLabels(tx, columnId));
    const fit = labelled.length >= MIN_LABELS ? fitIsotonic(labelled) : null;
    await tx.$executeRawUnsafe(
      `UPDATE columns SET calibration = $2::jsonb WHERE id = $1`,
      columnId,
      fit === null ? null : JSON.stringify(fit),
    );
  }
}
