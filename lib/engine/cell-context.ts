import type { Tx } from "../db/database.ts";
import type { ColumnRecord } from "../domain/column-model.ts";
import type { BaseContext } from "../domain/base-context.ts";
import type { CellJob } from "../jobs/types.ts";
import { parsed } from "../db/json.ts";
import { cellKey, inputCellsSql, inputIdsOf } from "../domain/cells/index.ts";
import { prepared } from "../db/prepared.ts";

export interface CellContext {
  baseCtx: BaseContext;
  column: ColumnRecord;
  columns: ColumnRecord[];
  values: Record<string, string>;
  /** AI input cells that ended in error (their failure fails this cell). */
  failedInputs: ColumnRecord[];
  /** The workspace's balance; null is unlimited. */
  credits: number | null;
  /** Model calls earlier attempts of this generation made (see AI_MAX_CALLS_PER_CELL). */
  callsSpent: number;
  /** What the cell held when it was queued ("" for none): what a refresh compares its answer with. */
  previousValue: string;
  /** The cell's run is a schedule's that has the model judge text changes (materiality "model"). */
  judgeChanges: boolean;
  /** Verified cells of the column on other rows, edited ones first, then the most recently reviewed. */
  examples: { values: Record<string, string>; value: string }[];
}

export const MAX_EXAMPLES = 5;

type ContextRow = {
  row_id: string;
  column_id: string;
  generation: number;
  status: string;
  lease_owner: string | null;
  values: Record<string, string> | null;
  base_id: string;
  base_name: string;
  workspace_id: string;
  /** text: a bigint would lose digits as a JSON number */
  credits: string | null;
  failed_inputs: string[];
  calls_spent: number;
  previous_value: string | null;
  judge_changes: boolean;
};

type ColumnJson = Omit<ColumnRecord, "createdAt" | "updatedAt"> & { createdAt: string; updatedAt: string };

export type CellContextLoader = ((job: CellJob) => Promise<CellContext | null>) & {
  /** Reads these jobs' contexts now, in one statement, for when they run. */
  readAhead(jobs: readonly CellJob[]): void;
};

const jobKey = (j: CellJob) => `${j.rowId}:${j.columnId}:${j.generation}:${j.attempts}`;

/**
 * Loads what each attempt needs. Jobs dispatched together are loaded together, in one statement; and
 * a claim's jobs are read ahead as they join the buffer, so a slot that frees starts its model
 * call at once and a claim of 32 costs one statement, not one per handful. This is the engine's
 * hot path, and on the embedded database every statement costs event-loop time. A context is
 * null when its job is obsolete: the cell is gone, was queued again, or is leased to someone
 * else. One read ahead can age while its job waits (at most a slot's turn): a cell changed
 * meanwhile is caught by the fence when its value is stored, and a cancelled one never starts
 * (worker-slots.ts).
 */
export function createCellContextLoader(db: Tx, owner: string, maxAhead = 256): CellContextLoader {
  let waiting: { job: CellJob; resolve: (c: CellContext | null) => void; reject: (e: unknown) => void }[] = [];
  const ahead = new Map<string, { all: Promise<(CellContext | null)[]>; i: number }>();

  const flush = async () => {
    const batch = waiting;
    waiting = [];
    try {
      const contexts = await loadMany(
        db,
        batch.map((w) => w.job),
        owner,
      );
      batch.forEach((w, i) => w.resolve(contexts[i]));
    } catch (e) {
      batch.forEach((w) => w.reject(e));
    }
  };

  const load = (job: CellJob) =>
    new Promise<CellContext | null>((resolve, reject) => {
      if (waiting.length === 0) setImmediate(() => void flush());
      waiting.push({ job, resolve, reject });
    });

  return Object.assign(
    (job: CellJob) => {
      const read = ahead.get(jobKey(job));
      if (!read) return load(job);
      ahead.delete(jobKey(job));
      // A read ahead that failed is tried again now, with the next batch.
      return read.all.then(
        (contexts) => contexts[read.i],
        () => load(job),
      );
    },
    {
      readAhead(jobs: readonly CellJob[]) {
        const all = loadMany(db, jobs, owner);
        all.catch(() => undefined); // taken by whoever runs the job; never an unhandled rejection
        jobs.forEach((job, i) => ahead.set(jobKey(job), { all, i }));
        // Jobs dropped without running (a stop) leave their reads behind: the oldest go first.
        for (const key of ahead.keys()) {
          if (ahead.size <= maxAhead) break;
          ahead.delete(key);
        }
      },
    },
  );
}

// Every field of ColumnRecord with its SQL column: `satisfies` makes a field added to the model a type error here,
// rather than a field typed as present and missing from the JSON.
const COLUMN_FIELDS = {
  id: "id",
  sheetId: "sheet_id",
  position: "position",
  name: "name",
  nameKey: "name_key",
  type: "type",
  isAiEnabled: "is_ai_enabled",
  isPrimary: "is_primary",
  inputColumnIds: "input_column_ids",
  tools: "tools",
  instructions: "instructions",
  columnOptions: "column_options",
  configVersion: "config_version",
  calibration: "calibration",
  fill: "fill",
  runIf: "run_if",
  writerColumnIds: "writer_column_ids",
  createdAt: "created_at",
  updatedAt: "updated_at",
} satisfies Record<keyof ColumnRecord, string>;

const COLUMN_JSON = `json_build_object(${Object.entries(COLUMN_FIELDS)
  .map(([field, sql]) => `'${field}', col.${sql}`)
  .join(", ")})`;

/**
 * One statement for a batch: its cells, rows and bases, its sheets' columns, its columns' worked
 * examples. Failed inputs are looked up by key (inputCellsSql): error cells pile up in every base.
 */
async function loadMany(db: Tx, jobs: readonly CellJob[], owner: string): Promise<(CellContext | null)[]> {
  const [loaded] = await db.$queryRawUnsafe<{ cells: unknown; columns: unknown; examples: unknown }[]>(
    CONTEXT_SQL,
    jobs.map((j) => j.rowId),
    jobs.map((j) => j.columnId),
    [...new Set(jobs.map((j) => j.sheetId))],
    [...new Set(jobs.map((j) => j.columnId))],
  );
  return contextsOf(loaded, jobs, owner);
}

function contextsOf(
  loaded: { cells: unknown; columns: unknown; examples: unknown },
  jobs: readonly CellJob[],
  owner: string,
): (CellContext | null)[] {
  const rows = parsed<ContextRow[]>(loaded.cells);
  const columns = parsed<ColumnJson[]>(loaded.columns).map((c) => ({
    ...c,
    createdAt: new Date(c.createdAt),
    updatedAt: new Date(c.updatedAt),
  }));
  const examples = examplesByColumn(parsed<ExampleRow[]>(loaded.examples));
  const byCell = new Map(rows.map((r) => [cellKey({ rowId: r.row_id, columnId: r.column_id }), r]));
  return jobs.map((job) => {
    const row = byCell.get(cellKey(job));
    if (!row || row.generation !== job.generation || row.status !== "running" || row.lease_owner !== owner) return null;
    const sheetColumns = columns.filter((c) => c.sheetId === job.sheetId);
    const column = sheetColumns.find((c) => c.id === job.columnId);
    if (!column) return null;
    const failed = new Set(row.failed_inputs);
    return {
      baseCtx: { baseId: row.base_id, workspaceId: row.workspace_id, sheetId: job.sheetId, name: row.base_name },
      column,
      columns: sheetColumns,
      values: row.values ?? {},
      failedInputs: sheetColumns.filter((c) => failed.has(c.id)),
      credits: row.credits === null ? null : Number(row.credits),
      callsSpent: Number(row.calls_spent),
      previousValue: row.previous_value ?? "",
      judgeChanges: row.judge_changes,
      examples: examplesFor(examples, job.columnId, job.rowId),
    };
  });
}

type ExampleRow = { column_id: string; row_id: string; values: unknown };

/** A column's worked examples for one row: other rows' verified values, never the row's own. */
export function examplesFor(
  loaded: ReadonlyMap<string, ExampleRow[]>,
  columnId: string,
  rowId: string,
): CellContext["examples"] {
  return (loaded.get(columnId) ?? [])
    .filter((e) => e.row_id !== rowId)
    .slice(0, MAX_EXAMPLES)
    .map((e) => {
      const values = (e.values ?? {}) as Record<string, string>;
      return { values, value: values[columnId] ?? "" };
    });
}

/** Up to MAX_EXAMPLES + 1 per column (one may be the cell being filled), through the partial index on verified cells. */
const EXAMPLES_SQL = (columnIds: string) => `SELECT col.id AS column_id, ex.row_id, ex."values"
  FROM unnest(${columnIds}::text[]) AS col(id)
  CROSS JOIN LATERAL (
    SELECT v.row_id, r."values" FROM (
      -- The column's verified cells, their status tested on the rows found (OFFSET 0): given the
      -- status, the planner may intersect them with the status index, which lists every done cell.
      SELECT c.row_id, c.status, c.metadata ? 'aiValue' AS edited, c.reviewed_at FROM cells c
      WHERE c.column_id = col.id AND c.verified OFFSET 0) v
    JOIN rows r ON r.id = v.row_id
    WHERE v.status = 'done'
    ORDER BY v.edited DESC, v.reviewed_at DESC NULLS LAST, v.row_id
    LIMIT ${MAX_EXAMPLES + 1}) ex`;

export async function loadExamples(db: Tx, columnIds: string[]): Promise<Map<string, ExampleRow[]>> {
  return examplesByColumn(await db.$queryRawUnsafe<ExampleRow[]>(EXAMPLES_SQL("$1"), columnIds));
}

function examplesByColumn(rows: ExampleRow[]): Map<string, ExampleRow[]> {
  const by = new Map<string, ExampleRow[]>();
  for (const r of rows) by.set(r.column_id, [...(by.get(r.column_id) ?? []), r]);
  return by;
}

const CONTEXT_SQL = prepared(`SELECT
       (SELECT COALESCE(json_agg(x), '[]') FROM (
          SELECT c.row_id, c.column_id, c.generation, c.status, c.lease_owner,
                 (SELECT r."values" FROM rows r WHERE r.id = c.row_id) AS "values", b.id AS base_id,
                 b.name AS base_name, b.workspace_id, w.credits::text AS credits,
                 ARRAY(SELECT d.column_id FROM ${inputCellsSql("c", inputIdsOf("c"))}
                       WHERE d.status = 'error') AS failed_inputs,
                 CASE WHEN c.attempts = 0 THEN 0 ELSE (SELECT COALESCE(sum(cr.model_calls), 0)::int FROM cell_runs cr
                   WHERE cr.row_id = c.row_id AND cr.column_id = c.column_id AND cr.generation = c.generation) END AS calls_spent,
                 c.previous_value,
                 EXISTS (SELECT 1 FROM runs ru JOIN schedules sc ON sc.id = ru.schedule_id
                         WHERE ru.id = c.run_id AND sc.materiality = 'model') AS judge_changes
          -- Each job's cell and row by key: joined plainly, the planner (which takes the unnest for
          -- 100 rows) hashed them against a scan of every cell or row of the database.
          FROM unnest($1::text[], $2::text[]) AS j(row_id, column_id)
          CROSS JOIN LATERAL (SELECT * FROM cells c WHERE c.row_id = j.row_id AND c.column_id = j.column_id OFFSET 0) c
          JOIN sheets s ON s.id = c.sheet_id
          JOIN bases b ON b.id = s.base_id
          JOIN workspaces w ON w.id = b.workspace_id) x) AS cells,
       (SELECT COALESCE(json_agg(${COLUMN_JSON} ORDER BY col.position), '[]') FROM columns col WHERE col.sheet_id = ANY($3::text[])) AS columns,
       (SELECT COALESCE(json_agg(ex), '[]') FROM (${EXAMPLES_SQL("$4")}) ex) AS examples`);
