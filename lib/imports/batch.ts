import { isGenerated } from "../domain/fill/kinds.ts";
import { inTransaction, type Work } from "../db/work.ts";
import { loadBase, loadColumns, type BaseContext } from "../domain/base-context.ts";
import { columnOptionsOf, type ColumnRecord } from "../domain/column-model.ts";
import { updateColumnRecord } from "../domain/columns/index.ts";
import { MAX_CELL_CHARS } from "../domain/rows/index.ts";
import { applyWrites } from "../domain/rows/index.ts";
import { upsertRows, type UpsertResult } from "../domain/rows/index.ts";
import { newId } from "../ids.ts";
import { configuredProviders, type ProviderName } from "../domain/model-spec.ts";
import type { ImportOptions } from "./analyze.ts";
import { castValue, withOptions } from "./cast.ts";
import { announce, holdLease, LeaseLost, type ImportRuntime, type StoredPlan } from "./progress.ts";
import { IMPORT_LIMITS } from "./limits.ts";
import { eachInSlices } from "../slices.ts";
import type { ImportError, ImportRow } from "./store.ts";

// One batch of lines, written in one transaction together with the import's progress: the lines
// committed (lines_done), the counters and the first errors. Either all of it commits or none,
// so a worker killed mid-batch leaves the import exactly at the previous batch.

type Line = { line: number; fields: string[] };
type CastLines = Awaited<ReturnType<typeof castLines>>;

/** A batch's lines cast ahead, while the previous batch was being written, with the columns they were cast for. */
export interface Precast {
  columns: readonly ColumnRecord[];
  cast: CastLines;
}

const ANALYZE_EVERY = 10_000;

/** Writes the batch that starts at data line `start`; returns where the next one starts. */
export async function writeBatch(
  rt: ImportRuntime,
  job: ImportRow,
  plan: StoredPlan,
  options: ImportOptions,
  owner: string,
  start: number,
  lines: Line[],
  ahead?: { precast?: Precast; onColumns?: (columns: readonly ColumnRecord[]) => void },
): Promise<number> {
  if (lines.length === 0) return start;
  return inTransaction(rt, async (w) => {
    const held = await holdLease(w, job.id, owner);
    // Another worker committed past this point while this one stalled: its lease is gone too.
    if (held.lines_done !== start) throw new LeaseLost();
    const baseCtx = await loadBase(w.tx, job.workspaceId, job.baseId);
    let columns = await loadColumns(w.tx, baseCtx.sheetId);
    // Casting depends on nothing but the columns (their types and options): a cast made ahead
    // for the very same columns is this one's; any change to them (a select option a batch
    // added, a column someone edited meanwhile) and the lines are cast again here.
    const precast = ahead?.precast;
    const cast =
      precast && sameColumns(precast.columns, columns) ? precast.cast : await castLines(columns, plan, options, lines);
    columns = await addSelectOptions(w, baseCtx, columns, cast.newOptions, configuredProviders(rt.config.ai));
    // The columns as this batch leaves them: what the next batch finds once this one commits.
    ahead?.onColumns?.(columns);
    const current = await w.tx.importJob.findUniqueOrThrow({
      where: { id: job.id },
      select: { runId: true, errors: true },
    });
    // Statistics once per 10,000 lines, as Add Rows at its largest batch refreshes them.
    const analyze = Math.floor((start + lines.length) / ANALYZE_EVERY) > Math.floor(start / ANALYZE_EVERY);
    // Charged to the key that started the import; its rows are written whatever the key's cap,
    // and their cells wait in a run paused with key_cap once the cap is spent.
    const policy = { ...rt.config.runs, keyId: job.keyId, keyCapCheck: false };
    const apply = { runAi: options.runAi, runId: current.runId, analyze, copyIn: rt.db.copyIn };
    let created = 0;
    let updated = 0;
    let runId: string | null;
    if (plan.mergeOn.length > 0) {
      const key = plan.mergeOn
        .map((id) => columns.find((c) => c.id === id))
        .filter((c): c is ColumnRecord => c !== undefined);
      const result: UpsertResult = await upsertRows(w, baseCtx, columns, key, cast.rows, policy, "import", apply);
      created = result.outcomes.filter((o) => o === "created").length;
      updated = result.outcomes.length - created;
      runId = result.runId;
    } else {
      const inserts = cast.rows.map((values) => ({ id: newId.row(), values: Object.fromEntries(values) }));
      ({ runId } = await applyWrites(
        w,
        baseCtx,
        columns,
        { inserts, updates: new Map(), current: new Map() },
        policy,
        "import",
        apply,
      ));
      created = inserts.length;
    }
    const kept = (current.errors as unknown as ImportError[]).length;
    const row = await w.tx.importJob.update({
      where: { id: job.id },
      data: {
        linesDone: start + lines.length,
        rowsRead: { increment: lines.length },
        rowsCreated: { increment: created },
        rowsUpdated: { increment: updated },
        rowsSkipped: { increment: lines.length - cast.rows.length },
        errors: [
          ...(current.errors as unknown as ImportError[]),
          ...cast.errors.slice(0, Math.max(0, IMPORT_LIMITS.keptErrors - kept)),
        ] as object[],
        runId: current.runId ?? runId,
      },
    });
    announce(w, row);
    return start + lines.length;
  });
}

const sameColumns = (a: readonly ColumnRecord[], b: readonly ColumnRecord[]) => JSON.stringify(a) === JSON.stringify(b);

/** Casts a batch's lines for these columns ahead of its transaction (writeBatch checks they are still the columns). */
export async function castAhead(
  columns: readonly ColumnRecord[],
  plan: StoredPlan,
  options: ImportOptions,
  lines: Line[],
): Promise<Precast> {
  return { columns, cast: await castLines(columns, plan, options, lines) };
}

/** Each line's values by column id (empty fields left out: an update keeps those cells), or its errors. */
async function castLines(columns: readonly ColumnRecord[], plan: StoredPlan, options: ImportOptions, lines: Line[]) {
  const byId = new Map(columns.map((c) => [c.id, c]));
  const rows: Map<string, string>[] = [];
  const errors: ImportError[] = [];
  const newOptions = new Map<string, Set<string>>();
  await eachInSlices(lines, ({ line, fields }) => {
    const values = new Map<string, string>();
    const problems: ImportError[] = [];
    if (fields.length > plan.targets.length && fields.slice(plan.targets.length).some((f) => f.trim() !== "")) {
      problems.push({
        line,
        column: null,
        code: "invalid_value",
        message: `The line has ${fields.length} fields; the header has ${plan.targets.length}.`,
      });
    }
    const wanted = new Map<string, string>();
    fields.forEach((raw, i) => {
      const column = byId.get(plan.targets[i] ?? "");
      // A formula column computes its value from the row, so a file's field for it (an export
      // read back in) is left out rather than refused.
      if (!column || column.fill || problems.length > 0) return;
      const result = castValue(column.type, columnOptionsOf(column), raw, plan.conventions, options.typecast);
      if (!result.ok)
        problems.push({
          line,
          column: column.name,
          code: "invalid_value",
          message: `${column.name}: ${result.message}`,
        });
      else if (result.value.length > MAX_CELL_CHARS)
        problems.push({
          line,
          column: column.name,
          code: "value_too_long",
          message: `${column.name}: a cell value is at most 100,000 characters.`,
        });
      else if (result.value !== "") {
        if (result.newOption !== undefined) {
          if (isGenerated(column)) {
            problems.push({
              line,
              column: column.name,
              code: "invalid_value",
              message: `${column.name}: "${result.value}" is not one of the options.`,
            });
            return;
          }
          wanted.set(column.id, result.newOption);
        }
        values.set(column.id, result.value);
      }
    });
    if (problems.length > 0) errors.push(problems[0]);
    else if (values.size > 0) {
      rows.push(values);
      for (const [columnId, option] of wanted)
        newOptions.set(columnId, (newOptions.get(columnId) ?? new Set()).add(option));
    }
  });
  return { rows, errors, newOptions };
}

/** Select options the batch needs, created as Airtable's typecast does. */
async function addSelectOptions(
  w: Work,
  baseCtx: BaseContext,
  columns: ColumnRecord[],
  wanted: Map<string, Set<string>>,
  providers: readonly ProviderName[],
): Promise<ColumnRecord[]> {
  let changed = false;
  for (const [columnId, options] of wanted) {
    const column = columns.find((c) => c.id === columnId)!;
    const next = withOptions(columnOptionsOf(column), options);
    if (!next) continue;
    await updateColumnRecord(w.tx, baseCtx, columnId, { columnOptions: next }, providers);
    changed = true;
  }
  if (!changed) return columns;
  w.emit({ type: "structure.changed", workspaceId: baseCtx.workspaceId, baseId: baseCtx.baseId });
  return loadColumns(w.tx, baseCtx.sheetId);
}
