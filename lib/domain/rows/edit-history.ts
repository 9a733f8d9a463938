import type { BaseContext } from "../base-context.ts";
import type { ColumnRecord } from "../column-model.ts";
import type { WrittenValue } from "../cells/index.ts";
import type { RowValues } from "./view.ts";

// What a write request changed in existing rows, for the cells' history: the values a client wrote
// (an edit, or an import's), and the formulas they recomputed. A cell cleared to run again is
// left out: its history records the answer, against the value it had.

export function editsWritten(
  baseCtx: BaseContext,
  columns: readonly ColumnRecord[],
  updates: ReadonlyMap<string, ReadonlyMap<string, string>>,
  current: ReadonlyMap<string, RowValues>,
  updated: ReadonlyMap<string, RowValues>,
  rerun: ReadonlySet<string>,
  who: { runId: string | null; actorId: string | null; kind: "edit" | "import" | "revert" },
): WrittenValue[] {
  const out: WrittenValue[] = [];
  for (const [rowId, next] of updated) {
    const before = current.get(rowId) ?? {};
    const written = updates.get(rowId);
    for (const column of columns) {
      const was = before[column.id] ?? "";
      const now = next[column.id] ?? "";
      if (was === now || rerun.has(`${rowId}:${column.id}`)) continue;
      out.push({
        baseCtx,
        rowId,
        columnId: column.id,
        kind: written?.has(column.id) ? who.kind : "formula",
        runId: who.runId,
        actorId: who.actorId,
        column: undefined,
        before: { value: was, status: null },
        after: { value: now, status: null },
      });
    }
  }
  return out;
}
