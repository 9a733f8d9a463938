// Pure rules for which AI cells run when rows are written (spec §4.4 plus autoRun).
import { isGenerated } from "./fill/kinds.ts";
import { autoRunOf, type ColumnRecord } from "./column-model.ts";
import { dependenciesOf, topologicalOrder, transitiveDependents } from "./graph.ts";
import { inputHashIn } from "./input-hash.ts";

export type InsertPlan = Map<string, "supplied" | "pending" | "idle">;

/**
 * Add Rows: a supplied non-empty value is kept as the user's; an absent or empty AI cell runs,
 * unless its column's autoRun is "never".
 */
export function planInsert(aiColumns: readonly ColumnRecord[], supplied: ReadonlySet<string>): InsertPlan {
  const plan: InsertPlan = new Map();
  for (const c of aiColumns) {
    if (supplied.has(c.id)) plan.set(c.id, "supplied");
    else plan.set(c.id, autoRunOf(c) === "never" ? "idle" : "pending");
  }
  return plan;
}

export interface UpdatePlan {
  /** AI cells the user wrote a value into: kept as supplied. */
  supplied: string[];
  /** AI cells to (re)run: written "" explicitly, or downstream of a changed input. */
  rerun: string[];
}

/**
 * Update Rows: writing a value into an AI cell stores it as the user's; writing "" runs it again;
 * a changed cell re-runs the AI columns downstream of it (transitively: inputs and run conditions)
 * whose autoRun is "always".
 */
export function planUpdate(
  columns: readonly ColumnRecord[],
  written: ReadonlyMap<string, string>,
  changed: ReadonlySet<string>,
): UpdatePlan {
  const ai = new Map(columns.filter(isGenerated).map((c) => [c.id, c]));
  const supplied: string[] = [];
  const rerun = new Set<string>();
  for (const [columnId, value] of written) {
    if (!ai.has(columnId)) continue;
    if (value === "") rerun.add(columnId);
    else supplied.push(columnId);
  }
  const triggers = [...changed].filter((id) => !(ai.has(id) && written.get(id) === ""));
  for (const id of transitiveDependents(columns, [...triggers, ...rerun])) {
    const column = ai.get(id);
    if (column && !written.has(id) && autoRunOf(column) === "always") rerun.add(id);
  }
  return { supplied, rerun: [...rerun] };
}

export interface HashDecision {
  /** AI cells to run again: written "" explicitly, or an "always" dependent whose inputs changed. */
  rerun: string[];
  /** Finished cells of dependents with autoRun onInsert or never whose inputs changed. */
  stale: string[];
}

const FINISHED = new Set(["done", "error", "cancelled", "skipped", "not_found"]);
/** Outcomes a same hash keeps: the value (or the skip) came from exactly these inputs and settings. */
const KEPT = new Set(["done", "skipped", "not_found"]);

/**
 * Update Rows with input hashes: a dependent whose hash (its inputs' values, instructions, tools
 * and model) is what its done value was generated from is left alone, so writing the same value
 * costs nothing. A dependent of a cell that will itself run again cannot be judged yet and counts
 * as changed.
 */
export function decideByHash(
  columns: readonly ColumnRecord[],
  written: ReadonlyMap<string, string>,
  changed: ReadonlySet<string>,
  next: Readonly<Record<string, string>>,
  stored: (columnId: string) => { status: string; inputHash: string | null } | undefined,
): HashDecision {
  const ai = new Map(columns.filter(isGenerated).map((c) => [c.id, c]));
  const rerun = new Set([...written].filter(([id, v]) => ai.has(id) && v === "").map(([id]) => id));
  const stale: string[] = [];
  const triggers = [...changed].filter((id) => !rerun.has(id));
  const dependents = transitiveDependents(columns, [...triggers, ...rerun]);
  for (const id of topologicalOrder(columns)) {
    const column = ai.get(id);
    if (!column || !dependents.has(id) || written.has(id)) continue;
    const cell = stored(id);
    const unknown = dependenciesOf(column).some((i) => rerun.has(i));
    if (!unknown && KEPT.has(cell?.status ?? "") && cell?.inputHash === inputHashIn(columns, column, next)) continue;
    if (autoRunOf(column) === "always") rerun.add(id);
    else if (cell && FINISHED.has(cell.status)) stale.push(id);
  }
  return { rerun: [...rerun], stale };
}
