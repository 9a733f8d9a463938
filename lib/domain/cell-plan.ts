// Pure rules for which AI cells run when rows are written (spec §4.4 plus autoRun).
import { autoRunOf, type ColumnRecord } from "./column-model.ts";
import { transitiveDependents } from "./graph.ts";

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
 * a changed cell re-runs the AI columns downstream of it (transitively) whose autoRun is "always".
 */
export function planUpdate(
  columns: readonly ColumnRecord[],
  written: ReadonlyMap<string, string>,
  changed: ReadonlySet<string>,
): UpdatePlan {
  const ai = new Map(columns.filter((c) => c.isAiEnabled).map((c) => [c.id, c]));
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
