import type { Tx } from "../../db/database.ts";
import type { Labelled } from "./stats.ts";

// Ground truth from the review history: per cell, the review that stands. An undo takes back the
// action before it (only the latest action of a cell can be undone), and a rerun leaves the cell
// unreviewed. An accept says the model was right, an edit that it was wrong; only answers the
// model gave (the cell was done) count, and only those with a confidence enter the calibration.

export interface ReviewLabel {
  rowId: string;
  correct: boolean;
  confidence: number | null;
}

type ActionRow = { row_id: string; action: string; before: { status?: string; confidence?: unknown } | null };

/** The standing review of each reviewed cell of the column (rows deleted since are left out). */
export async function reviewLabels(tx: Tx, columnId: string): Promise<ReviewLabel[]> {
  const actions = await tx.$queryRawUnsafe<ActionRow[]>(
    `SELECT a.row_id, a.action, a.before FROM review_actions a
     WHERE a.column_id = $1 AND EXISTS (SELECT 1 FROM rows r WHERE r.id = a.row_id)
     ORDER BY a.row_id, a.created_at, a.id`,
    columnId,
  );
  const labels: ReviewLabel[] = [];
  let stack: ActionRow[] = [];
  const flush = () => {
    const top = stack[stack.length - 1];
    if (top && (top.action === "accept" || top.action === "edit") && top.before?.status === "done") {
      const c = top.before.confidence;
      labels.push({
        rowId: top.row_id,
        correct: top.action === "accept",
        confidence: typeof c === "number" && Number.isFinite(c) ? c : null,
      });
    }
    stack = [];
  };
  for (const a of actions) {
    if (stack.length > 0 && stack[0].row_id !== a.row_id) flush();
    if (a.action === "undo") stack.pop();
    else stack.push(a);
  }
  flush();
  return labels;
}

/** The labels that carry a confidence, for buckets, calibration and thresholds. */
export const withConfidence = (labels: readonly ReviewLabel[]): Labelled[] =>
  labels.flatMap((l) => (l.confidence === null ? [] : [{ confidence: l.confidence, correct: l.correct }]));
