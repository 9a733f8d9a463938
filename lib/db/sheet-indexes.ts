import type { Database } from "./database.ts";

// The indexes a large sheet gets of its own, on the one `rows` table: an expression index per
// typed column, so that Query Rows filters and sorts by a number or a date without reading every
// row, and a trigram index of the rows' search text, so that a search does not either. Each is
// partial (one sheet), and a typed column's expression is the one lib/domain/query/sql.ts builds
// (numberValue, dateValue), or the planner would not match it; a test checks the plans.
// Only large sheets get them (`minRows`, COLUMN_INDEX_MIN_ROWS). Every partial index on `rows`
// costs every row written (its predicate is checked) and every statement planned (its predicate is
// proved or refuted): with 2,000 of them, 1,000 bases of two typed columns, inserting 1,000 rows
// took 25× as long and planning a primary-key lookup 0.2 → 94 ms (BENCHMARKS.md). A sheet below
// the threshold is read through (sheet_id, seq), sorted in memory (11 ms for 20,000 rows) and
// searched by reading its rows' text. A sheet keeps its indexes until it shrinks below half the
// threshold, so one that hovers around it does not build and drop them in turn.
// Text columns have no B-tree: their values may exceed an entry's size; search covers them.
// Indexes follow the columns and the sheets' sizes after each structure change and each write
// that adds or deletes rows, outside the request's transaction: on PostgreSQL they are built
// CONCURRENTLY, so no write ever waits for one, and not before an import into the base ends: one
// build over a sheet's rows costs a fraction of maintaining the index row by row (BENCHMARKS.md,
// bench:million). The embedded database builds in place, holding its one connection, so it keeps
// to the threshold: an import there pays for a build of `minRows` rows, then row by row.
// A request's ANALYZE skips a table such a build holds (SKIP_LOCKED, domain/rows/apply.ts) rather
// than wait for it, so the two never deadlock. A build that fails anyway (cancelled, or a deadlock
// with some other session) leaves an INVALID index behind, which IF NOT EXISTS would then keep for
// good: invalid indexes count as stale, and a base whose sync failed is tried again.

const ID = /^[A-Za-z0-9_]{1,64}$/;

const EXPRESSIONS: Record<string, (columnId: string) => string> = {
  number: (c) => `((NULLIF("values"->>'${c}', ''))::numeric)`,
  date: (c) => `(NULLIF("values"->>'${c}', '') COLLATE "C")`,
};

export const INDEX_PREFIX = "rows_by_";
export const SEARCH_INDEX_PREFIX = "rows_text_";
const MAX_TRIES = 4;
const RETRY_MS = 2_000;
/** Named after the column and its type, so a type change is a new index (and the old one goes). */
const columnIndexName = (columnId: string, type: string) => `${INDEX_PREFIX}${columnId}_${type}`.toLowerCase();
export const searchIndexName = (sheetId: string) => `${SEARCH_INDEX_PREFIX}${sheetId}`.toLowerCase();

interface SheetState {
  id: string;
  /** Its rows, counted up to `minRows` only: the cost stays that of a threshold, however large the sheet. */
  held: number;
  columns: { id: string; type: string }[];
  /** Whether any index of this sheet exists now. */
  indexed: boolean;
}

const trigrams = new WeakMap<Database, Promise<boolean>>();
/** Whether pg_trgm is installed (asked once a database): without it search scans, and no sheet gets a search index. */
function hasTrigrams(db: Database): Promise<boolean> {
  let known = trigrams.get(db);
  if (!known) {
    known = db.prisma
      .$queryRawUnsafe<unknown[]>(`SELECT 1 FROM pg_opclass WHERE opcname = 'gin_trgm_ops'`)
      .then((found) => found.length > 0);
    trigrams.set(db, known);
  }
  return known;
}

/**
 * Returns the sheet's rows as counted when it is small and has no index (none otherwise).
 * Creates the indexes the base's sheet lacks once it holds `minRows` rows, drops those of a sheet
 * below half of it, and drops every index whose column is gone or retyped, or whose sheet is gone.
 * `sizesOnly`, after a write that only added or deleted rows, skips that last part: no column
 * changed, so no index went stale, and a small sheet without indexes costs one short statement.
 */
export async function syncSheetIndexes(
  db: Database,
  baseId: string,
  minRows: number,
  sizesOnly = false,
): Promise<number | undefined> {
  const [sheet] = await db.prisma.$queryRawUnsafe<SheetState[]>(
    `SELECT s.id,
            (SELECT count(*) FROM (SELECT 1 FROM rows r WHERE r.sheet_id = s.id LIMIT $3) x)::int AS held,
            COALESCE((SELECT json_agg(json_build_object('id', c.id, 'type', c.type)) FROM columns c
                       WHERE c.sheet_id = s.id AND c.type = ANY($2::text[])), '[]'::json) AS columns,
            EXISTS (SELECT 1 FROM pg_class ic WHERE ic.relkind = 'i'
                       AND (ic.relname = lower('${SEARCH_INDEX_PREFIX}' || s.id)
                            OR ic.relname IN (SELECT lower('${INDEX_PREFIX}' || c.id || '_' || c.type)
                                                FROM columns c WHERE c.sheet_id = s.id))) AS indexed
       FROM sheets s WHERE s.base_id = $1`,
    baseId,
    Object.keys(EXPRESSIONS),
    minRows,
  );
  const small = sheet && !sheet.indexed && sheet.held < minRows ? sheet.held : undefined;
  if (sizesOnly && (!sheet || small !== undefined)) return small;
  const candidates = sheet && ID.test(sheet.id) ? await candidateIndexes(db, sheet) : [];
  // Across every base after a structure change: a deleted base leaves no columns or sheet behind
  // to name its indexes by. After a write, only this base's: with thousands of indexes, reading
  // them all on every Add Rows cost more than the write.
  const indexes = await db.prisma.$queryRawUnsafe<{ indexname: string; stale: boolean }[]>(
    `SELECT i.indexname,
            (NOT x.indisvalid
             OR (i.indexname LIKE '${INDEX_PREFIX}%' AND NOT EXISTS (
                   SELECT 1 FROM columns c WHERE lower('${INDEX_PREFIX}' || c.id || '_' || c.type) = i.indexname
                      AND c.type = ANY($1::text[])))
             OR (i.indexname LIKE '${SEARCH_INDEX_PREFIX}%' AND NOT EXISTS (
                   SELECT 1 FROM sheets s WHERE lower('${SEARCH_INDEX_PREFIX}' || s.id) = i.indexname))) AS stale
       FROM pg_indexes i
       JOIN pg_class ic ON ic.relname = i.indexname AND ic.relkind = 'i'
       JOIN pg_index x ON x.indexrelid = ic.oid
      WHERE i.tablename = 'rows' AND (i.indexname LIKE '${INDEX_PREFIX}%' OR i.indexname LIKE '${SEARCH_INDEX_PREFIX}%')
        AND ($2::text[] IS NULL OR i.indexname = ANY($2::text[]))`,
    Object.keys(EXPRESSIONS),
    sizesOnly ? candidates.map((c) => c.name) : null,
  );
  const built = new Set(indexes.filter((i) => !i.stale).map((i) => i.indexname));
  const drop = indexes.filter((i) => i.stale).map((i) => i.indexname);
  const concurrently = db.exclusive ? "" : " CONCURRENTLY";
  const create: string[] = [];
  for (const c of candidates) {
    const wanted = sheet.held >= minRows || (built.has(c.name) && sheet.held >= minRows / 2);
    if (wanted && !built.has(c.name))
      create.push(
        `CREATE INDEX${concurrently} IF NOT EXISTS "${c.name}" ON rows ${c.definition} WHERE sheet_id = '${sheet.id}'`,
      );
    else if (!wanted && built.has(c.name)) drop.push(c.name);
  }
  for (const name of drop) await db.prisma.$executeRawUnsafe(`DROP INDEX${concurrently} IF EXISTS "${name}"`);
  for (const sql of create) await db.prisma.$executeRawUnsafe(sql);
  return create.length === 0 ? small : undefined;
}

/** The indexes a large sheet has: its typed columns' first (quick to build), then its search text's. */
async function candidateIndexes(db: Database, sheet: SheetState) {
  const out: { name: string; definition: string }[] = [];
  for (const c of sheet.columns) {
    const expression = EXPRESSIONS[c.type];
    if (expression && ID.test(c.id))
      out.push({ name: columnIndexName(c.id, c.type), definition: `(${expression(c.id)}, seq)` });
  }
  if (await hasTrigrams(db))
    out.push({ name: searchIndexName(sheet.id), definition: `USING gin (search_text gin_trgm_ops)` });
  return out;
}

type Bus = {
  on(
    fn: (e: { type: string; baseId?: string; kind?: string; status?: string; rowIds?: readonly string[] }) => void,
  ): () => void;
};

/** How long a small sheet's count stands in for a new one (see watchSheetIndexes' `small`). */
const RECOUNT_MS = 60_000;

/**
 * Keeps the indexes in step with the columns and the sheets' sizes: after each structure change
 * and each write that adds or deletes rows (coalesced per base, one base at a time), and once at
 * start for bases made before this process ran. On PostgreSQL a base being imported into waits
 * for its import to end (or for this process's next start, if it dies first).
 */
export function watchSheetIndexes(db: Database, bus: Bus, minRows: number): { stop: () => Promise<void> } {
  /** The bases to sync, each with whether only its row count changed (see syncSheetIndexes). */
  const due = new Map<string, boolean>();
  const importing = new Map<string, boolean>();
  const failures = new Map<string, number>();
  // Counting a sheet's rows (up to minRows) after every Add Rows cost 20–200 ms of the embedded
  // database's one connection, which the next request waited for. There, one process makes every
  // write and announces each, so a small sheet's last count plus the rows added since bounds its
  // size: no count is needed until that bound reaches minRows (or the count is RECOUNT_MS old).
  // Deleting rows from a sheet without indexes never needs one either.
  const small = new Map<string, { held: number; at: number }>();
  let syncing: string | undefined;
  let running: Promise<void> | null = null;
  let stopped = false;
  const stillSmall = (baseId: string, added: number) => {
    const last = small.get(baseId);
    const held = (last?.held ?? minRows) + added;
    if (!db.exclusive || !last || held >= minRows || Date.now() - last.at > RECOUNT_MS) return false;
    if (due.has(baseId) || syncing === baseId) return false;
    last.held = held;
    return true;
  };
  const drain = async () => {
    for (const [baseId, sizesOnly] of due) {
      due.delete(baseId);
      small.delete(baseId);
      try {
        syncing = baseId;
        const held = await syncSheetIndexes(db, baseId, minRows, sizesOnly);
        // A write announced during the count may be missing from it: counted again next time.
        if (held !== undefined && !due.has(baseId)) small.set(baseId, { held, at: Date.now() });
        failures.delete(baseId);
      } catch (err) {
        const tries = (failures.get(baseId) ?? 0) + 1;
        failures.set(baseId, tries);
        const again = tries < MAX_TRIES && !stopped;
        console.error(
          `[cellwright] indexes of base ${baseId}${again ? " (will retry)" : ""}:`,
          err instanceof Error ? err.message : err,
        );
        if (again) setTimeout(() => !stopped && schedule(baseId, sizesOnly), RETRY_MS * tries).unref();
      }
    }
    syncing = undefined;
    running = null;
  };
  const schedule = (baseId: string, sizesOnly: boolean) => {
    const waiting = importing.has(baseId) ? importing : due;
    waiting.set(baseId, sizesOnly && (waiting.get(baseId) ?? true));
    if (waiting === due) running ??= drain();
  };
  const off = bus.on((e) => {
    if (!e.baseId) return;
    if (e.type === "structure.changed") schedule(e.baseId, false);
    else if (e.type === "rows.changed" && e.kind !== "updated") {
      if (!stillSmall(e.baseId, e.kind === "added" ? (e.rowIds?.length ?? minRows) : 0)) schedule(e.baseId, true);
    } else if (e.type === "import.updated" && !db.exclusive) {
      if (e.status === "running") {
        if (!importing.has(e.baseId)) importing.set(e.baseId, true);
      } else if (importing.has(e.baseId)) {
        const sizesOnly = importing.get(e.baseId)!;
        importing.delete(e.baseId);
        schedule(e.baseId, sizesOnly);
      }
    }
  });
  // Bases whose sheets may need an index or may hold one: those with typed columns, and those
  // with half the threshold's rows or more (a sheet's rows are counted only that far).
  const startup = db.prisma
    .$queryRawUnsafe<{ base_id: string }[]>(
      `SELECT s.base_id FROM sheets s
        WHERE EXISTS (SELECT 1 FROM columns c WHERE c.sheet_id = s.id AND c.type = ANY($1::text[]))
           OR EXISTS (SELECT 1 FROM rows r WHERE r.sheet_id = s.id OFFSET $2 LIMIT 1)`,
      Object.keys(EXPRESSIONS),
      Math.max(0, Math.ceil(minRows / 2) - 1),
    )
    .then((rows) => rows.forEach((r) => schedule(r.base_id, false)))
    .catch(() => undefined);
  return {
    stop: async () => {
      stopped = true;
      off();
      due.clear();
      importing.clear();
      await startup;
      await running;
    },
  };
}
