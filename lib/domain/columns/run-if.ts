import type { Tx } from "../../db/database.ts";
import { appError, isAppError } from "../../errors.ts";
import type { ColumnRecord } from "../column-model.ts";
import { compileFilter, Params, parseFilter, type FilterNode } from "../query/index.ts";

// A generated column's run condition (runIf): a filter tree of the Query Rows grammar, checked by
// the same parser, and stored with its columns named by id so that a rename keeps it.

export type StoredRunIf = Record<string, unknown>;

const bad = (message: string, details: Record<string, unknown> = {}) =>
  appError("invalid_run_if", message, { field: "runIf", ...details });

/**
 * Checks a run condition against the base's columns (the column itself among them when it
 * exists) and returns it as stored. Throws unknown_column, invalid_filter (with details.path) or
 * invalid_run_if.
 */
export function resolveRunIf(
  raw: unknown,
  columns: readonly ColumnRecord[],
  self: { id: string; name: string; generated: boolean },
): StoredRunIf | null {
  if (raw === null || raw === undefined) return null;
  if (!self.generated)
    throw bad(`"${self.name}" is not a generated column: only a column the AI fills has a run condition.`);
  const tree = parseFilter(raw, columns, "runIf");
  const onSelf = namedColumns(tree).find((c) => c.id === self.id);
  if (onSelf)
    throw bad(`A run condition cannot read "${self.name}" itself: its cell is not filled until the condition is met.`);
  return storedTree(tree);
}

function namedColumns(node: FilterNode): ColumnRecord[] {
  if ("children" in node) return node.children.flatMap(namedColumns);
  if ("child" in node) return namedColumns(node.child);
  return [node.column];
}

/** The checked tree in the grammar again, each column by id: a client may send it back as it is. */
export function storedTree(node: FilterNode): StoredRunIf {
  switch (node.kind) {
    case "and":
    case "or":
      return { [node.kind]: node.children.map(storedTree) };
    case "not":
      return { not: storedTree(node.child) };
    case "value":
      if (node.op === "isEmpty" || node.op === "isNotEmpty") return { column: node.column.id, op: node.op };
      return { column: node.column.id, op: node.op, value: node.op === "in" ? node.values : node.values[0] };
    case "status":
      return { column: node.column.id, status: node.status };
    case "confidence":
      return { column: node.column.id, confidence: { [node.op]: node.value } };
    case "changedSince":
      return { column: node.column.id, changedSince: node.since.toISOString() };
    case "flag":
      return { column: node.column.id, [node.flag]: node.value };
  }
}

/**
 * Whether a row matches its column's run condition, decided by the database with Query Rows' own
 * SQL, so a condition means exactly what the same filter does there. The stored tree is parsed
 * again against today's columns: one whose type changed since may no longer take its operator,
 * and that is invalid_run_if (the cell fails with it, rather than guessing).
 */
export async function runIfHolds(
  tx: Tx,
  sheetId: string,
  rowId: string,
  column: Pick<ColumnRecord, "name" | "runIf">,
  columns: readonly ColumnRecord[],
): Promise<boolean> {
  if (column.runIf === null || column.runIf === undefined) return true;
  let tree: FilterNode;
  try {
    tree = parseFilter(column.runIf, columns, "runIf");
  } catch (e) {
    if (!isAppError(e)) throw e;
    throw bad(`The run condition of "${column.name}" no longer fits the base: ${e.message} Set it again.`);
  }
  const p = new Params();
  const row = p.add(rowId);
  const sheet = p.add(sheetId);
  const condition = compileFilter(tree, p);
  const hit = await tx.$queryRawUnsafe<unknown[]>(
    `SELECT 1 FROM rows r WHERE r.id = ${row} AND r.sheet_id = ${sheet} AND ${condition}`,
    ...p.values,
  );
  return hit.length > 0;
}
