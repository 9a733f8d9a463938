import { table } from "./command.ts";

// How `eval` shows an evaluation: the progress while it runs, and the accuracy, the calibration
// and the confidence buckets when it ends. The shape is GET /api/v1/evaluations/{id}'s.

export interface ConfidenceBucket {
  from: number;
  to: number;
  cells: number;
  agreement: number | null;
  /** The mean confidence of the bucket's cells (absent from older servers). */
  confidence?: number | null;
}

export interface Evaluation {
  id: string;
  columnId: string;
  runId: string | null;
  status: "running" | "paused" | "done" | "cancelled";
  settings?: { model?: string | null; changed?: string[] };
  counts: {
    rows: number;
    pending: number;
    running: number;
    done: number;
    error: number;
    cancelled: number;
    correct: number;
    incorrect: number;
  };
  accuracy: number | null;
  previousAccuracy: number | null;
  expectedCalibrationError: number | null;
  byConfidence: ConfidenceBucket[];
  creditsSpent?: number;
}

export const finished = (e: Evaluation) => e.status === "done" || e.status === "cancelled";

/** Rows that will not change any more: answered, failed or cancelled. */
const settled = (e: Evaluation) => e.counts.done + e.counts.error + e.counts.cancelled;

const BAR_WIDTH = 30;

/** One redrawable line for a terminal: "\r[#####-----] 40% 20/50 rows". */
export function progressBar(e: Evaluation): string {
  const total = e.counts.rows;
  const share = total === 0 ? 1 : Math.min(1, settled(e) / total);
  const filled = Math.round(share * BAR_WIDTH);
  const paused = e.status === "paused" ? " (paused)" : "";
  return `\r[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${Math.floor(share * 100)}% ${settled(e)}/${total} rows${paused}`;
}

/** A plain line for logs and pipes, where a redrawn bar would be noise. */
export const progressLine = (e: Evaluation) =>
  `${settled(e)}/${e.counts.rows} rows${e.status === "paused" ? " (paused)" : ""}`;

const percent = (n: number | null) => (n === null ? "–" : `${(n * 100).toFixed(1)}%`);
const decimal = (n: number | null | undefined) => (n === null || n === undefined ? "–" : n.toFixed(2));

/** The summary printed when the evaluation ends. */
export function summaryLines(e: Evaluation, columnName: string): string[] {
  const c = e.counts;
  const judged = c.correct + c.incorrect;
  const lines = [
    `Evaluation ${e.id} of "${columnName}": ${e.status}${e.settings?.model ? `, model ${e.settings.model}` : ""}`,
    `Accuracy           ${percent(e.accuracy)}${judged > 0 ? ` (${c.correct} of ${judged} rows right)` : ""}`,
    `Before             ${percent(e.previousAccuracy)} (the column's own answers on the same rows)`,
    `Rows               ${c.rows}: ${c.correct} right, ${c.incorrect} wrong, ${c.error} failed, ${c.cancelled} cancelled, ${c.pending + c.running} unfinished`,
    `Calibration error  ${decimal(e.expectedCalibrationError)} (expected calibration error: 0 means confidence matches accuracy)`,
  ];
  if (e.settings?.changed?.length)
    lines.push(`Changed            ${e.settings.changed.join(", ")} (compared with the column's settings)`);
  if (e.creditsSpent !== undefined) lines.push(`Credits            ${e.creditsSpent}`);
  lines.push("");
  if (e.byConfidence.length === 0) {
    lines.push("No confidence buckets: no answer carried a confidence.");
    return lines;
  }
  const rows = e.byConfidence.map((b) => [
    `${b.from.toFixed(1)}–${b.to.toFixed(1)}`,
    String(b.cells),
    percent(b.agreement),
    decimal(b.confidence),
  ]);
  lines.push(...table([["CONFIDENCE", "CELLS", "AGREEMENT", "MEAN CONFIDENCE"], ...rows]));
  return lines;
}
