import type { Tx } from "../../db/database.ts";

/** Deletes up to `limit` cell attempt records made before `before`; returns how many. */
export async function pruneCellAttempts(tx: Tx, before: Date, limit: number): Promise<number> {
  return tx.$executeRawUnsafe(
    `DELETE FROM cell_runs WHERE id IN (SELECT id FROM cell_runs WHERE created_at < $1 LIMIT $2)`,
    before,
    limit,
  );
}
