import { parse } from "csv-parse/sync";
import { nameKey } from "../domain/column-model.ts";

// `eval`'s golden set: a CSV of key → expected value, and the review actions that turn it into
// verified cells. Pure: the command reads the file and the rows, this decides.

export const MAX_LABELS = 10_000;
/** Far more than 10,000 labelled rows need; a bigger file is almost surely the wrong one. */
export const MAX_LABELS_BYTES = 20 * 1024 * 1024;

export interface Label {
  key: string;
  value: string;
}

export interface LabelsFile {
  labels: Label[];
  /** Lines whose label cell is empty: not labelled, so left out. */
  blank: number;
  /** Keys labelled more than once with different values: left out, since either could be wrong. */
  conflicting: string[];
}

/** Comma, tab or semicolon, whichever the header line has most of outside quotes (spreadsheets export all three). */
function sniffDelimiter(text: string): string {
  const end = text.indexOf("\n");
  const header = (end < 0 ? text : text.slice(0, end)).replace(/"(?:[^"]|"")*"/g, "");
  const counts = [",", "\t", ";"].map((d) => [d, header.split(d).length - 1] as const).sort((a, b) => b[1] - a[1]);
  return counts[0][1] > 0 ? counts[0][0] : ",";
}

/** Parses the labels CSV (with a header) and picks the key and label columns by name. */
export function readLabels(text: string, keyColumn: string, labelColumn: string): LabelsFile {
  let records: string[][];
  try {
    // One record more than allowed (plus the header) tells "too many" from "exactly the maximum".
    records = parse(text, {
      bom: true,
      delimiter: sniffDelimiter(text),
      relax_column_count: true,
      skip_empty_lines: true,
      to: MAX_LABELS + 2,
    });
  } catch (e) {
    throw new Error(`The labels file is not valid CSV: ${(e as Error).message}`);
  }
  if (records.length === 0) throw new Error("The labels file is empty; it needs a header line and one line per label.");
  if (records.length > MAX_LABELS + 1)
    throw new Error(`The labels file has more than ${MAX_LABELS.toLocaleString("en-US")} lines; split it.`);
  // Matched like the API matches column names: case and surrounding spaces do not matter.
  const header = records[0].map(nameKey);
  const keyAt = header.indexOf(nameKey(keyColumn));
  const labelAt = header.indexOf(nameKey(labelColumn));
  const found = records[0].map((h) => `"${h}"`).join(", ");
  if (labelAt < 0)
    throw new Error(`The labels file has no "${labelColumn}" column (the labels); its header is ${found}.`);
  if (keyAt < 0)
    throw new Error(
      `The labels file has no "${keyColumn}" column to match rows by; its header is ${found}. Pass --key <column> to match by another column.`,
    );

  const byKey = new Map<string, string>();
  const conflicting = new Set<string>();
  let blank = 0;
  for (const record of records.slice(1)) {
    const key = (record[keyAt] ?? "").trim();
    const value = (record[labelAt] ?? "").trim();
    if (key === "" || value === "") {
      blank++;
      continue;
    }
    const seen = byKey.get(key);
    if (seen !== undefined && seen !== value) conflicting.add(key);
    byKey.set(key, value);
  }
  for (const key of conflicting) byKey.delete(key);
  return { labels: [...byKey].map(([key, value]) => ({ key, value })), blank, conflicting: [...conflicting] };
}

/** The labelled column's cell in one row, as Get Rows with expand=true shows it. */
export interface LabelledCell {
  rowId: string;
  value: string;
  status?: string;
  verified?: boolean;
}

export interface ReviewItem {
  rowId: string;
  columnId: string;
  action: "accept" | "edit";
  value?: string;
}

export interface ReviewPlan {
  reviews: ReviewItem[];
  /** Rows already verified with the label: nothing to do, but they are part of the golden set. */
  alreadyVerified: string[];
  /** Labels whose key matches no row. */
  unmatched: Label[];
  /** Labels whose key matches several rows: which one the label is about is unknown. */
  ambiguous: Label[];
}

/**
 * Accept where the model already gave the label (the column's own answer was right), edit
 * everywhere else (it was wrong, or never ran). A verified cell that already holds the label is
 * left alone, so that running the same golden set again adds nothing to the review history.
 * `agrees` is the evaluation's own comparison, so "Right before" means what "right" means there.
 */
export function planReview(
  labels: readonly Label[],
  cellsByKey: ReadonlyMap<string, readonly LabelledCell[]>,
  columnId: string,
  agrees: (label: string, value: string) => boolean,
): ReviewPlan {
  const plan: ReviewPlan = { reviews: [], alreadyVerified: [], unmatched: [], ambiguous: [] };
  for (const label of labels) {
    const cells = cellsByKey.get(label.key) ?? [];
    if (cells.length === 0) plan.unmatched.push(label);
    else if (cells.length > 1) plan.ambiguous.push(label);
    else {
      const cell = cells[0];
      const same = cell.value.trim() !== "" && agrees(label.value, cell.value);
      if (same && cell.verified) plan.alreadyVerified.push(cell.rowId);
      else if (same && cell.status === "done") plan.reviews.push({ rowId: cell.rowId, columnId, action: "accept" });
      else plan.reviews.push({ rowId: cell.rowId, columnId, action: "edit", value: label.value });
    }
  }
  return plan;
}
