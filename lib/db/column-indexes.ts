import type { Database } from "./database.ts";

// Expression indexes per typed column, so that Query Rows filters and sorts a large sheet by a
// number or a date without reading every row. Each index is partial (one sheet) and its expression
// is the one lib/domain/query/sql.ts builds (numberValue, dateValue), or the planner would not
// match it; a test checks the plans.
// Text columns have none: their values may exceed a B-tree entry's size, and search has its own
// trigram index. Indexes follow the columns after each structure change, outside the request's
// transaction: on PostgreSQL they are built CONCURRENTLY, so no write ever waits for one. A
// request's ANALYZE skips a table such a build holds (SKIP_LOCKED, domain/rows/apply.ts) rather than wait
// for it, so the two never deadlock. A build that fails anyway (cancelled, or a deadlock with some
// other session) leaves an INVALID index behind, which IF NOT EXISTS would then keep for good:
// invalid indexes count as stale, and a base whose sync failed is tried again.

const ID = /^[A-Za-z0-9_]{1,64}$/;

const EXPRESSIONS: Record<string, (columnId: string) => string> = {
  number: (c) => `((NULLIF("values"->>'${c}', ''))::numeric)`,
  date: (c) => `(NULLIF("values"->>'${c}', '') COLLATE "C")`,
};

export const INDEX_PREFIX = "rows_by_";
const MAX_TRIES = 4;
const RETRY_MS = 2_000;
/** Named after the column and its type, so a type change is a new index (and the old one goes). */
const indexName = (columnId: string, type: string) => `${INDEX_PREFIX}${columnId}_${type}`.toLowerCase();

/** Creates the indexes the base's typed columns lack, and drops every index whose column is gone or retyped. */
export async function syncColumnIndexes(db: Database, baseId: string): Promise<void> {
  const columns = await db.prisma.$queryRawUnsafe<{ id: string; type: string; sheet_id: string }[]>(
    `SELECT c.id, c.type, c.sheet_id FROM columns c JOIN sheets s ON s.id = c.sheet_id WHERE s.base_id = $1`,
    baseId,
  );
  // Across every base: a deleted base leaves no columns behind to name its indexes by.
  const stale = await db.prisma.$queryRawUnsafe<{ indexname: string }[]>(
    `SELECT i.indexname FROM pg_indexes i
       JOIN pg_class ic ON ic.relname = i.indexname AND ic.relkind = 'i'
       JOIN pg_index x ON x.indexrelid = ic.oid
     WHERE i.tablename = 'rows' AND i.indexname LIKE '${INDEX_PREFIX}%'
       AND (NOT x.indisvalid
            OR NOT EXISTS (SELECT 1 FROM columns c WHERE lower('${INDEX_PREFIX}' || c.id || '_' || c.type) = i.indexname AND c.type = ANY($1::text[])))`,
    Object.keys(EXPRESSIONS),
  );
  const concurrently = db.exclusive ? "" : " CONCURRENTLY";
  for (const { indexname } of stale)
    await db.prisma.$executeRawUnsafe(`DROP INDEX${concurrently} IF EXISTS "${indexname}"`);
  for (const c of columns) {
    const expression = EXPRESSIONS[c.type];
    if (!expression || !ID.test(c.id) || !ID.test(c.sheet_id)) continue;
    await db.prisma.$executeRawUnsafe(
      `CREATE INDEX${concurrently} IF NOT EXISTS "${indexName(c.id, c.type)}" ON rows (${expression(c.id)}, seq) WHERE sheet_id = '${c.sheet_id}'`,
    );
  }
}

/**
 * Keeps the indexes in step with the columns: after each structure change (coalesced per base,
 * one base at a time), and once at start for bases made before this process ran.
 */
export function watchColumnIndexes(
  db: Database,
  bus: { on(fn: (e: { type: string; baseId?: string }) => void): () => void },
): { stop: () => Promise<void> } {
  const due = new Set<string>();
  const failures = new Map<string, number>();
  let running: Promise<void> | null = null;
  let stopped = false;
  const drain = async () => {
    for (const baseId of due) {
      due.delete(baseId);
      try {
        await syncColumnIndexes(db, baseId);
        failures.delete(baseId);
      } catch (err) {
        const tries = (failures.get(baseId) ?? 0) + 1;
        failures.set(baseId, tries);
        const again = tries < MAX_TRIES && !stopped;
        console.error(
          `[cellwright] column indexes of base ${baseId}${again ? " (will retry)" : ""}:`,
          err instanceof Error ? err.message : err,
        );
        if (again) setTimeout(() => !stopped && schedule(baseId), RETRY_MS * tries).unref();
      }
    }
    running = null;
  };
  const schedule = (baseId: string) => {
    due.add(baseId);
    running ??= drain();
  };
  const off = bus.on((e) => {
    if (e.type === "structure.changed" && e.baseId) schedule(e.baseId);
  });
  const startup = db.prisma
    .$queryRawUnsafe<{ base_id: string }[]>(
      `SELECT DISTINCT s.base_id FROM columns c JOIN sheets s ON s.id = c.sheet_id WHERE c.type = ANY($1::text[])`,
      Object.keys(EXPRESSIONS),
    )
    .then((rows) => rows.forEach((r) => schedule(r.base_id)))
    .catch(() => undefined);
  return {
    stop: async () => {
      stopped = true;
      off();
      due.clear();
      await startup;
      await running;
    },
  };
}
