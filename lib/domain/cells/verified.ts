import type { Tx } from "../../db/database.ts";
import type { CellMetadata } from "../cell-view.ts";

/**
 * Cells whose value a find verified on the row's own pages: written with the row (so done, as a
 * supplied value is), they carry the verification's reasoning, sources and confidence as an AI
 * answer does, not a person's mark, so review and quality treat them as the column's answers.
 */
export async function storeVerifiedCells(
  tx: Tx,
  cells: readonly { rowId: string; columnId: string; metadata: CellMetadata; inputHash: string }[],
): Promise<void> {
  if (cells.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE cells c SET metadata = t.meta::jsonb, input_hash = t.hash, updated_at = now()
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(row_id, column_id, meta, hash)
     WHERE c.row_id = t.row_id AND c.column_id = t.column_id AND c.status = 'done'`,
    cells.map((c) => c.rowId),
    cells.map((c) => c.columnId),
    cells.map((c) => JSON.stringify(c.metadata)),
    cells.map((c) => c.inputHash),
  );
}
