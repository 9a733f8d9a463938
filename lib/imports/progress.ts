import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { UnitOfWork, Work } from "../db/work.ts";
import type { Conventions } from "./cast.ts";
import type { ImportRow } from "./store.ts";

// What the import's worker and its batches share: the plan, the lease and the progress events.

export type ImportRuntime = UnitOfWork & {
  db: Pick<Database, "prisma" | "copyIn">;
  config: Pick<Config, "dataDir" | "runs" | "ai">;
};

/** What the first pass settled, stored on the import so a resumed import follows the same plan. */
export interface StoredPlan {
  /** Per field: the column it goes to, or null (ignored). */
  targets: (string | null)[];
  keys: string[] | null;
  conventions: Conventions;
  /** The merge key's column ids; [] for none. */
  mergeOn: string[];
}

/** Lost the import's lease to another worker (this one stalled): stop without touching it. */
export class LeaseLost extends Error {}

/** Locks the import for this transaction, if this worker still holds it. */
export async function holdLease(w: Work, id: string, owner: string) {
  const rows = await w.tx.$queryRawUnsafe<{ lines_done: number }[]>(
    `SELECT lines_done FROM imports WHERE id = $1 AND lease_owner = $2 AND status IN ('queued', 'running') FOR UPDATE`,
    id,
    owner,
  );
  if (rows.length === 0) throw new LeaseLost();
  return rows[0];
}

export function announce(w: Work, row: ImportRow) {
  w.emit({
    type: "import.updated",
    workspaceId: row.workspaceId,
    baseId: row.baseId,
    importId: row.id,
    status: row.status,
    linesDone: row.linesDone,
    linesTotal: row.linesTotal,
  });
}
