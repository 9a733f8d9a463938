import type { CellView } from "../../data/types";

export const DEFAULT_LOW_CONFIDENCE = 0.5;

export const thresholdOf = (settings: { lowConfidenceThreshold?: number } | undefined) =>
  typeof settings?.lowConfidenceThreshold === "number" ? settings.lowConfidenceThreshold : DEFAULT_LOW_CONFIDENCE;

export function isLowConfidence(cell: CellView | undefined, threshold: number): boolean {
  const score = cell?.metadata?.confidenceScore;
  // A reviewer's accepting the value outweighs the model's doubt.
  return (
    cell?.status === "done" &&
    typeof score === "number" &&
    score < threshold &&
    !cell.metadata?.suppliedByUser &&
    !cell.verified
  );
}

export const isBusy = (cell: CellView | undefined) => cell?.status === "pending" || cell?.status === "running";

/** Whether a cell has anything the details popover can show (a changed value has its history). */
export function hasDetails(cell: CellView | undefined): boolean {
  if (!cell) return false;
  const m = cell.metadata;
  return Boolean(
    cell.error ||
      cell.stale ||
      cell.changedAt ||
      m?.sources?.length ||
      m?.additionalDetails ||
      m?.steps?.length ||
      typeof m?.confidenceScore === "number",
  );
}

export interface Source {
  label: string;
  url: string;
  excerpt?: string;
}

/** Sources are Markdown links, "[label](url)"; only http(s) targets become links. */
export function parseSources(cell: CellView | undefined): Source[] {
  const out: Source[] = [];
  const excerpts = cell?.metadata?.excerpts ?? {};
  for (const raw of cell?.metadata?.sources ?? []) {
    const source = parseSource(raw);
    if (source) out.push({ ...source, excerpt: excerpts[source.url] });
  }
  return out;
}

/** One source, "[label](url)" or a bare URL; null unless it points at http(s). */
export function parseSource(raw: string): Source | null {
  const m = /^\s*\[([^\]]*)\]\((\S+?)\)\s*$/.exec(raw);
  const url = m ? m[2] : raw.trim();
  if (!/^https?:\/\//i.test(url)) return null;
  return { label: (m?.[1] || hostOf(url)).trim(), url };
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
}
