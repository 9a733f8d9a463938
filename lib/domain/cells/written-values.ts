import type { Tx } from "../../db/database.ts";
import type { WrittenValue } from "./answer-history.ts";
import { cellKey, type CellRef } from "./types.ts";

// A stored answer and its outputs as the history records them: what each cell held before (the
// cell's value and status when it was queued, an output column's value in the row) and after.

/** What storeValues stores of one answer (its Completion), as far as the history reads it. */
interface StoredAnswer {
  job: CellRef;
  baseCtx: WrittenValue["baseCtx"];
  value: string;
  metadata: { sources: string[] | null; confidenceScore: number | null };
  outcome?: "done" | "not_found";
  outputs?: Readonly<Record<string, string>>;
  columns?: readonly { id: string; type: string; columnOptions?: unknown; fill?: unknown }[];
  materiality?: WrittenValue["judged"];
}

type Before = { previous_value: string | null; previous_status: string | null; run_id: string | null };

const columnOf = (p: StoredAnswer, id: string) => p.columns?.find((c) => c.id === id);
const isFormula = (fill: unknown) => (fill as { kind?: string } | null | undefined)?.kind === "formula";

export const answerWritten = (p: StoredAnswer, b: Before): WrittenValue => ({
  baseCtx: p.baseCtx,
  rowId: p.job.rowId,
  columnId: p.job.columnId,
  kind: "answer",
  runId: b.run_id,
  column: columnOf(p, p.job.columnId),
  before: { value: b.previous_value ?? "", status: b.previous_status },
  after: {
    value: p.value,
    status: p.outcome ?? "done",
    sources: p.metadata.sources,
    confidence: p.metadata.confidenceScore,
  },
  judged: p.materiality,
});

export const outputsWritten = (p: StoredAnswer, runId: string | null, before: ReadonlyMap<string, string>) =>
  Object.entries(p.outputs ?? {}).map((entry): WrittenValue => {
    const [columnId, value] = entry;
    const column = columnOf(p, columnId);
    return {
      baseCtx: p.baseCtx,
      rowId: p.job.rowId,
      columnId,
      kind: isFormula(column?.fill) ? "formula" : "output",
      runId,
      column,
      before: { value: before.get(cellKey({ rowId: p.job.rowId, columnId })) ?? "", status: null },
      after: { value, status: null },
    };
  });

/** The values these cells hold in their rows now, by cell key (absent: none). */
export async function currentValues(tx: Tx, refs: readonly CellRef[]): Promise<Map<string, string>> {
  if (refs.length === 0) return new Map();
  const rows = await tx.$queryRawUnsafe<{ row_id: string; column_id: string; value: string | null }[]>(
    `SELECT u.row_id, u.column_id, r."values"->>u.column_id AS value
     FROM unnest($1::text[], $2::text[]) AS u(row_id, column_id) JOIN rows r ON r.id = u.row_id`,
    refs.map((r) => r.rowId),
    refs.map((r) => r.columnId),
  );
  return new Map(
    rows.filter((r) => r.value !== null).map((r) => [cellKey({ rowId: r.row_id, columnId: r.column_id }), r.value!]),
  );
}

/**
 * Records cells that just ended without a value (an error, a skip): against what each held when it
 * was queued, which the cell still keeps.
 */
export async function endedWithoutValue(
  tx: Tx,
  baseCtx: WrittenValue["baseCtx"],
  refs: readonly CellRef[],
  status: string,
): Promise<WrittenValue[]> {
  if (refs.length === 0) return [];
  const rows = await tx.$queryRawUnsafe<(Before & { row_id: string; column_id: string; error_code: string | null })[]>(
    `SELECT row_id, column_id, previous_value, previous_status, run_id, error_code FROM cells
     WHERE (row_id, column_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    refs.map((r) => r.rowId),
    refs.map((r) => r.columnId),
  );
  return rows.map((r) => ({
    baseCtx,
    rowId: r.row_id,
    columnId: r.column_id,
    kind: "answer",
    runId: r.run_id,
    column: undefined,
    before: { value: r.previous_value ?? "", status: r.previous_status },
    after: { value: "", status },
    reason: r.error_code,
  }));
}
