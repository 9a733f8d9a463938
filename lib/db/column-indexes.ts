import type { Database } from "./database.ts";

// Expression indexes per typed column, so that Query Rows filters and sorts a large sheet by a
// number or a date without reading every row. Each index is partial (one sheet) and its expression
// is the one lib/domain/query/sql.ts builds (numberValue, dateValue), or the planner would not
// match it; a test checks the plans.
// Only large sheets get them (`minRows`, COLUMN_INDEX_MIN_ROWS). Every partial index on `rows`
// costs every row written (its predicate is checked) and every statement planned (its predicate is
// proved or refuted): with 2,000 of them, 1,000 bases of two typed columns, inserting 1,000 rows
// took 25× as long and planning a primary-key lookup 0.2 → 94 ms (BENCHMARKS.md). A sheet below
// the threshold is read through (sheet_id, seq) and sorted in memory, 11 ms for 20,000 rows. A
// sheet keeps its indexes until it shrinks below half the threshold, so one that hovers around it
// does not build and drop them in turn.
// Text columns have none: their values may exceed a B-tree entry's size, and search has its own
// trigram index. Indexes follow the columns and the sheets' sizes after each structure change and
// each write that adds or deletes rows, outside the request's transaction: on PostgreSQL they are
// built CONCURRENTLY, so no write ever waits for one. A request's ANALYZE skips a table such a
// build holds (SKIP_LOCKED, domain/rows/apply.ts) rather than wait for it, so the two never
// deadlock. A build that fails anyway (cancelled, or a deadlock with some other session) leaves an
// INVALID index behind, which IF NOT EXISTS would then keep for good: invalid indexes count as
// stale, and a base whose sync failed is tried again.

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

/**
 * Creates the indexes the base's typed columns lack once their sheet holds `minRows` rows, drops
 * those of a sheet below half of it, and drops every index whose column is gone or retyped.
 * `sizesOnly`, after a write that only added or deleted rows, skips that last part: no column
 * changed, so no index went stale, and a base without typed columns costs one short statement.
 */
export async function syncColumnIndexes(
  db: Database,
  baseId: string,
  minRows: number,
  sizesOnly = false,
): Promise<void> {
  // Rows are counted up to `minRows` only: the cost stays that of a threshold, however large the sheet.
  const columns = await db.prisma.$queryRawUnsafe<{ id: string; type: string; sheet_id: string; held: number }[]>(
    `WITH sheet AS (
       SELECT s.id, (SELECT count(*) FROM (SELECT 1 FROM rows r WHERE r.sheet_id = s.id LIMIT $3) x)::int AS held
         FROM sheets s WHERE s.base_id = $1)
     SELECT c.id, c.type, c.sheet_id, sheet.held FROM columns c JOIN sheet ON sheet.id = c.sheet_id
      WHERE c.type = ANY($2::text[])`,
    baseId,
    Object.keys(EXPRESSIONS),
    minRows,
  );
  if (sizesOnly && columns.length === 0) return;
  // Across every base after a structure change: a deleted base leaves no columns behind to name
  // its indexes by. After a write, only this base's: with thousands of indexes, reading them all
  // on every Add Rows cost more than the write.
  const indexes = await db.prisma.$queryRawUnsafe<{ indexname: string; stale: boolean }[]>(
    `SELECT i.indexname,
            (NOT x.indisvalid
             OR NOT EXISTS (SELECT 1 FROM columns c WHERE lower('${INDEX_PREFIX}' || c.id || '_' || c.type) = i.indexname AND c.type = ANY($1::text[]))) AS stale
       FROM pg_indexes i
       JOIN pg_class ic ON ic.relname = i.indexname AND ic.relkind = 'i'
       JOIN pg_index x ON x.indexrelid = ic.oid
      WHERE i.tablename = 'rows' AND i.indexname LIKE '${INDEX_PREFIX}%'
        AND ($2::text[] IS NULL OR i.indexname = ANY($2::text[]))`,
    Object.keys(EXPRESSIONS),
    sizesOnly ? columns.map((c) => indexName(c.id, c.type)) : null,
  );
  const built = new Set(indexes.filter((i) => !i.stale).map((i) => i.indexname));
  const drop = indexes.filter((i) => i.stale).map((i) => i.indexname);
  const concurrently = db.exclusive ? "" : " CONCURRENTLY";
  const create: string[] = [];
  for (const c of columns) {
    const expression = EXPRESSIONS[c.type];
    if (!expression || !ID.test(c.id) || !ID.test(c.sheet_id)) continue;
    const name = indexName(c.id, c.type);
    const wanted = c.held >= minRows || (built.has(name) && c.held >= minRows / 2);
    if (wanted && !built.has(name))
      create.push(
        `CREATE INDEX${concurrently} IF NOT EXISTS "${name}" ON rows (${expression(c.id)}, seq) WHERE sheet_id = '${c.sheet_id}'`,
      );
    else if (!wanted && built.has(name)) drop.push(name);
  }
  for (const name of drop) await db.prisma.$executeRawUnsafe(`DROP INDEX${concurrently} IF EXISTS "${name}"`);
  for (const sql of create) await db.prisma.$executeRawUnsafe(sql);
}

/**
 * Keeps the indexes in step with the columns and the sheets' sizes: after each structure change
 * and each write that adds or deletes rows (coalesced per base, one base at a time), and once at
 * start for bases made before this process ran.
 */
export function watchColumnIndexes(
  db: Database,
  bus: { on(fn: (e: { type: string; baseId?: string; kind?: string }) => void): () => void },
  minRows: number,
): { stop: () => Promise<void> } {
  /** The bases to sync, each with whether only its row count changed (see syncColumnIndexes). */
  const due = new Map<string, boolean>();
  const failures = new Map<string, number>();
  let running: Promise<void> | null = null;
  let stopped = false;
  const drain = async () => {
    for (const [baseId, sizesOnly] of due) {
      due.delete(baseId);
      try {
        await syncColumnIndexes(db, baseId, minRows, sizesOnly);
        failures.delete(baseId);
      } catch (err) {
        const tries = (failures.get(baseId) ?? 0) + 1;
        failures.set(baseId, tries);
        const again = tries < MAX_TRIES && !stopped;
        console.error(
          `[cellwright] column indexes of base ${baseId}${again ? " (will retry)" : ""}:`,
          err instanceof Error ? err.message : err,
        );
        if (again) setTimeout(() => !stopped && schedule(baseId, sizesOnly), RETRY_MS * tries).unref();
      }
    }
    running = null;
  };
  const schedule = (baseId: string, sizesOnly: boolean) => {
    due.set(baseId, sizesOnly && (due.get(baseId) ?? true));
    running ??= drain();
  };
  const off = bus.on((e) => {
    if (!e.baseId) return;
    if (e.type === "structure.changed") schedule(e.baseId, false);
    else if (e.type === "rows.changed" && e.kind !== "updated") schedule(e.baseId, true);
  });
  const startup = db.prisma
    .$queryRawUnsafe<{ base_id: string }[]>(
      `SELECT DISTINCT s.base_id FROM columns c JOIN sheets s ON s.id = c.sheet_id WHERE c.type = ANY($1::text[])`,
      Object.keys(EXPRESSIONS),
    )
    .then((rows) => rows.forEach((r) => schedule(r.base_id, false)))
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
