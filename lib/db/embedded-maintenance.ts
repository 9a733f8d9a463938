import type { PGlite } from "@electric-sql/pglite";

// The embedded database runs PostgreSQL as one process (`--single`): no checkpointer and no
// autovacuum. PostgreSQL asks the checkpointer for a checkpoint once the write-ahead log written
// since the last one passes max_wal_size / (1 + checkpoint_completion_target): 539 MB, 33 segments
// at the defaults. In PGlite nobody answers, and the next WAL insert spins forever on its lock
// (reproduced: the hang moves to 67 MB with max_wal_size=128MB, and never comes with a CHECKPOINT
// every 32 MB). So this module does the two processes' work itself, between statements, through
// PGlite's own queue (it waits for any open transaction, and never runs inside one):
// - CHECKPOINT when the WAL since the last one passes a size, and on a timer once anything was
//   written, so pg_wal is recycled and stays a few segments;
// - VACUUM (ANALYZE) or ANALYZE of each table whose dead or changed rows pass autovacuum's own
//   default thresholds, one table at a time, so updated rows' space is reused and the planner's
//   statistics follow the data.
// PostgreSQL's own processes do all of this for a real server, which needs none of it.
// Unlike theirs, this work holds the one backend: every request waits while a table is vacuumed. So
// vacuums, analyzes and timed checkpoints wait for a lull in the requests (`lullMs` without a
// statement), or run anyway once they have waited `maxDeferMs`. Only the checkpoint past its WAL
// size never waits, since the hang above waits at the end of that road.

export interface MaintenanceSettings {
  /** How often the cheap checks run (the WAL position, pg_stat_user_tables). */
  tickMs: number;
  /** CHECKPOINT once this much WAL was written since the last one. */
  checkpointAfterBytes: number;
  /** CHECKPOINT at least this often while anything is written (PostgreSQL's checkpoint_timeout). */
  checkpointEveryMs: number;
  /** A round right after this many rows were written: a process that writes back to back may never reach its timers. */
  roundAfterRows: number;
  /** The database counts as quiet once no statement has run for this long. */
  lullMs: number;
  /** Vacuums, analyzes and timed checkpoints wait for a lull at most this long. */
  maxDeferMs: number;
}

export const MAINTENANCE_DEFAULTS: MaintenanceSettings = {
  tickMs: 5_000,
  checkpointAfterBytes: 64 * 1024 * 1024,
  checkpointEveryMs: 5 * 60_000,
  roundAfterRows: 5_000,
  lullMs: 250,
  maxDeferMs: 30_000,
};

// PostgreSQL's autovacuum defaults: a table is vacuumed once its dead rows pass 50 + 20% of its
// rows, and analyzed once its changed rows pass 50 + 10% (autovacuum_vacuum_threshold and
// _scale_factor, autovacuum_analyze_threshold and _scale_factor).
const VACUUM_BASE = 50;
const VACUUM_SCALE = 0.2;
const ANALYZE_BASE = 50;
const ANALYZE_SCALE = 0.1;
/** Less WAL than this since the last checkpoint is the checkpoint's own record: nothing was written. */
const IDLE_WAL_BYTES = 64 * 1024;

export interface MaintenanceRound {
  checkpoint: boolean;
  vacuumed: string[];
  analyzed: string[];
}

export interface EmbeddedMaintenance {
  /** One round now (tests, benchmarks); rounds never overlap. */
  runNow(): Promise<MaintenanceRound>;
  /** Rows were added, changed or deleted (after their commit): enough of them start a round. */
  noteWrites(rows: number): void;
  stop(): Promise<void>;
}

type Sql = Pick<PGlite, "query" | "exec">;

/**
 * `quietForMs` says how long the database has gone without a statement (0 while one runs or a
 * transaction is open); without it, every round counts as quiet.
 */
export function maintainEmbedded(
  pglite: Sql,
  settings: MaintenanceSettings = MAINTENANCE_DEFAULTS,
  quietForMs: () => number = () => Number.POSITIVE_INFINITY,
): EmbeddedMaintenance {
  let lastCheckpoint = Date.now();
  let running: Promise<MaintenanceRound> | null = null;
  let stopped = false;
  let rowsSinceRound = 0;
  /** When a background round first found the requests busy; undefined once one has run quiet. */
  let deferredSince: number | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const round = async (quiet: boolean): Promise<MaintenanceRound> => {
    const done: MaintenanceRound = { checkpoint: false, vacuumed: [], analyzed: [] };
    if (quiet) {
      for (const t of await tablesDue(pglite)) {
        if (stopped) return done;
        await pglite.exec(t.vacuum ? `VACUUM (ANALYZE) ${quoteIdent(t.name)}` : `ANALYZE ${quoteIdent(t.name)}`);
        (t.vacuum ? done.vacuumed : done.analyzed).push(t.name);
      }
    }
    // After the vacuum, whose WAL this checkpoint then covers too.
    const written = await walSinceCheckpoint(pglite);
    const due =
      written >= settings.checkpointAfterBytes ||
      (quiet && written > IDLE_WAL_BYTES && Date.now() - lastCheckpoint >= settings.checkpointEveryMs);
    if (due && !stopped) {
      await pglite.exec("CHECKPOINT");
      lastCheckpoint = Date.now();
      done.checkpoint = true;
    }
    return done;
  };
  const start = (quiet: boolean): Promise<MaintenanceRound> => {
    if (quiet) rowsSinceRound = 0;
    running ??= round(quiet).finally(() => {
      running = null;
    });
    return running;
  };
  const runNow = () => start(true);
  const inBackground = () => {
    if (running || stopped) return;
    const now = Date.now();
    const quiet = quietForMs() >= settings.lullMs || now - (deferredSince ?? now) >= settings.maxDeferMs;
    if (quiet) deferredSince = undefined;
    else {
      deferredSince ??= now;
      // Tried again soon, so that the work lands in the first lull rather than at the next tick.
      retry ??= setTimeout(() => {
        retry = undefined;
        inBackground();
      }, settings.lullMs);
      retry.unref();
    }
    start(quiet).catch((e: unknown) => {
      if (!stopped) console.error("[cellwright] embedded database maintenance:", e instanceof Error ? e.message : e);
    });
  };

  // PGlite answers synchronously under its promises, so in the thread that runs it a loop of writes
  // that awaits nothing else never lets a timer run: the rows written start rounds too.
  const timer = setInterval(inBackground, settings.tickMs);
  // The maintenance never keeps a process alive that has nothing else to do.
  timer.unref();

  return {
    runNow,
    noteWrites(rows) {
      rowsSinceRound += rows;
      if (rowsSinceRound >= settings.roundAfterRows) inBackground();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(retry);
      await running?.catch(() => undefined);
    },
  };
}

/** WAL bytes inserted since the redo point of the last checkpoint. */
async function walSinceCheckpoint(pglite: Sql): Promise<number> {
  const { rows } = await pglite.query<{ bytes: string }>(
    `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::text AS bytes FROM pg_control_checkpoint()`,
  );
  return Number(rows[0].bytes);
}

async function tablesDue(pglite: Sql): Promise<{ name: string; vacuum: boolean }[]> {
  // A backend publishes its table counters at most once a second, when it goes idle: this makes
  // the end of this statement publish them, so the next one reads every write so far.
  await pglite.query(`SELECT pg_stat_force_next_flush()`);
  const { rows } = await pglite.query<{ name: string; vacuum: boolean; analyze: boolean }>(
    `SELECT s.relname AS name,
            n_dead_tup > $1 + $2 * GREATEST(n_live_tup, c.reltuples) AS vacuum,
            n_mod_since_analyze > $3 + $4 * GREATEST(n_live_tup, c.reltuples) AS analyze
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
      WHERE s.schemaname = 'public'
      ORDER BY n_dead_tup + n_mod_since_analyze DESC`,
    [VACUUM_BASE, VACUUM_SCALE, ANALYZE_BASE, ANALYZE_SCALE],
  );
  return rows.filter((r) => r.vacuum || r.analyze).map((r) => ({ name: r.name, vacuum: r.vacuum }));
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Feeds the embedded database's maintenance the rows each write committed; a database with its own
 * maintenance processes (PostgreSQL) has none to feed.
 */
export function watchWrites(
  db: { maintenance?: EmbeddedMaintenance },
  bus: { on(fn: (e: { type: string; rowIds?: readonly string[] }) => void): () => void },
): { stop: () => Promise<void> } {
  const maintenance = db.maintenance;
  if (!maintenance) return { stop: async () => undefined };
  const off = bus.on((e) => {
    if (e.type === "rows.changed" && e.rowIds) maintenance.noteWrites(e.rowIds.length);
  });
  return { stop: async () => off() };
}
