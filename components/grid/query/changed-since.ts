import type { Condition, FilterTree } from "./query-state";

// The "Changed since…" quick filter: rows whose generated cells really changed since a time, in
// one column ({ column, changedSince }) or in any of them (an `or` of those). It rides beside the
// filter bar's flat list of conditions as one more member of the top-level `and`, so the bar
// takes it apart to edit the rest, and puts it back.

export const CHANGED_PRESETS = [
  { id: "24h", label: "Last 24 hours", ms: 24 * 3600_000 },
  { id: "7d", label: "Last 7 days", ms: 7 * 24 * 3600_000 },
  { id: "30d", label: "Last 30 days", ms: 30 * 24 * 3600_000 },
] as const;
export type ChangedPreset = (typeof CHANGED_PRESETS)[number]["id"];

/** Without a filter, a generated cell counts as recently changed for this long. */
export const RECENT_CHANGE_MS = 24 * 3600_000;

/** The start of a preset's window, as ISO 8601, to the minute (so the URL does not churn). */
export function presetSince(preset: ChangedPreset, now: number): string {
  const ms = CHANGED_PRESETS.find((p) => p.id === preset)?.ms ?? RECENT_CHANGE_MS;
  return new Date(Math.floor((now - ms) / 60_000) * 60_000).toISOString();
}

/** A custom day picked in a date input (YYYY-MM-DD), from its start in the browser's zone. */
export function dateSince(day: string): string | null {
  const m = /^(\d{4})-(\d\d)-(\d\d)$/.exec(day);
  if (!m) return null;
  const at = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

export interface ChangedFilter {
  since: string;
  /** The columns (ids or names) it looks at: one, or every generated column. */
  columns: string[];
}

const isChangedCondition = (node: FilterTree): node is Condition & { changedSince: string } =>
  "column" in node && typeof (node as { changedSince?: unknown }).changedSince === "string";

/** The quick filter a node is, if it is one: a changedSince condition, or an `or` of them with one time. */
export function asChangedFilter(node: FilterTree): ChangedFilter | null {
  if (isChangedCondition(node)) return { since: node.changedSince, columns: [node.column] };
  if (!("or" in node) || node.or.length === 0 || !node.or.every(isChangedCondition)) return null;
  const conds = node.or as (Condition & { changedSince: string })[];
  const since = conds[0].changedSince;
  return conds.every((c) => c.changedSince === since) ? { since, columns: conds.map((c) => c.column) } : null;
}

export function changedFilterTree(changed: ChangedFilter): FilterTree {
  const each = changed.columns.map((column) => ({ column, changedSince: changed.since }));
  return each.length === 1 ? each[0] : { or: each };
}

/** The filter without its quick filter, and the quick filter (the last one found at the top). */
export function splitChanged(filter: FilterTree | null): { rest: FilterTree | null; changed: ChangedFilter | null } {
  if (!filter) return { rest: null, changed: null };
  const own = asChangedFilter(filter);
  if (own) return { rest: null, changed: own };
  if (!("and" in filter)) return { rest: filter, changed: null };
  const at = filter.and.findLastIndex((n) => asChangedFilter(n) !== null);
  if (at < 0) return { rest: filter, changed: null };
  const others = filter.and.filter((_, i) => i !== at);
  const rest = others.length === 0 ? null : others.length === 1 ? others[0] : { and: others };
  return { rest, changed: asChangedFilter(filter.and[at]) };
}

/** Puts the quick filter back beside the rest: the reverse of splitChanged. */
export function joinChanged(rest: FilterTree | null, changed: ChangedFilter | null): FilterTree | null {
  if (!changed) return rest;
  const tree = changedFilterTree(changed);
  if (!rest) return tree;
  return "and" in rest ? { and: [...rest.and, tree] } : { and: [rest, tree] };
}

/**
 * The time from which the grid marks a generated cell as changed: the quick filter's, or the last
 * 24 hours, rounded down to the minute so the grid's rows need not render again every moment.
 */
export function changedMarkSince(filter: FilterTree | null, now: number): number {
  const since = splitChanged(filter).changed?.since;
  const at = since ? Date.parse(since) : Number.NaN;
  return Number.isNaN(at) ? Math.floor((now - RECENT_CHANGE_MS) / 60_000) * 60_000 : at;
}

/** Whether a cell's value changed at or after `since` (ms). */
export function changedRecently(cell: { changedAt?: string } | undefined, since: number): boolean {
  if (!cell?.changedAt) return false;
  const at = Date.parse(cell.changedAt);
  return !Number.isNaN(at) && at >= since;
}

/** "Changed since 3 Dec, 14:05 in Summary" / "… in any AI column". */
export function describeChanged(changed: ChangedFilter, nameOf: (ref: string) => string, generated: number): string {
  const when = new Date(changed.since).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  const where =
    changed.columns.length === 1
      ? nameOf(changed.columns[0])
      : changed.columns.length >= generated
        ? "any AI column"
        : changed.columns.map(nameOf).join(" or ");
  return `Changed since ${when} in ${where}`;
}
