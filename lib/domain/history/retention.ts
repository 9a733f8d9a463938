import type { Tx } from "../../db/database.ts";

// Retention of cells' histories (HISTORY_RETENTION_DAYS): changes older than the cut-off leave
// their cell's history; a history left empty goes. Batches of cells, each cell rewritten once.

export async function pruneHistory(tx: Tx, cutoff: Date, batch: number): Promise<number> {
  const [{ n }] = await tx.$queryRawUnsafe<{ n: number }[]>(
    `WITH old AS (
       SELECT row_id, column_id, entries FROM cell_history WHERE oldest_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED),
     kept AS (
       SELECT row_id, column_id,
         (SELECT jsonb_agg(e ORDER BY i) FROM jsonb_array_elements(old.entries) WITH ORDINALITY AS a(e, i)
          WHERE (e->>'t')::timestamptz >= $1) AS entries
       FROM old),
     gone AS (
       DELETE FROM cell_history h USING kept k
       WHERE h.row_id = k.row_id AND h.column_id = k.column_id AND k.entries IS NULL RETURNING 1),
     trimmed AS (
       UPDATE cell_history h SET entries = k.entries, entry_count = jsonb_array_length(k.entries),
         oldest_at = (k.entries->0->>'t')::timestamptz
       FROM kept k WHERE h.row_id = k.row_id AND h.column_id = k.column_id AND k.entries IS NOT NULL RETURNING 1)
     SELECT ((SELECT count(*) FROM gone) + (SELECT count(*) FROM trimmed))::int AS n`,
    cutoff,
    batch,
  );
  return n;
}
