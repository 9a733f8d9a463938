"use client";
import { isLooking, useCandidates, type FindCandidate, type FindView } from "../data/finds";
import { formatCount, plural } from "../ui/format";
import { Spinner } from "../ui/spinner";
import { CandidateTable } from "./candidate-table";

/** "3 matched · 8 verified · 2 added": a find's counts, as the run bar and the dialog show them. */
export function findCounts(f: FindView): string {
  const c = f.candidates;
  return [
    `${formatCount(c.matched)} matched`,
    `${formatCount(c.verified)} verified`,
    `${formatCount(c.added)} added`,
    ...(c.rejected ? [`${formatCount(c.rejected)} rejected`] : []),
    ...(c.unclear ? [`${formatCount(c.unclear)} unclear`] : []),
  ].join(" · ");
}

/** What stopped it, when that is worth saying. */
export function stopLabel(f: FindView): string | null {
  switch (f.stopReason) {
    case "exhausted":
      return "The searches ran out of candidates.";
    case "budget":
      return "Paused at its credit cap.";
    case "cancelled":
      return "Cancelled.";
    case "error":
      return f.error?.message ?? "It stopped on an error.";
    default:
      return null;
  }
}

const OUTCOME_ORDER = ["matched", "unclear", "rejected", "error"];
/** Matches first: they are what "Find N" adds. */
const byOutcome = (list: FindCandidate[]) =>
  [...list].sort((a, b) => OUTCOME_ORDER.indexOf(a.status) - OUTCOME_ORDER.indexOf(b.status));

/** A preview while it verifies, then its candidates and what the whole count would cost. */
export function FindPreview({ find }: { find: FindView }) {
  const looking = isLooking(find);
  const { data: candidates } = useCandidates(
    find.baseId,
    find.id,
    ["matched", "rejected", "unclear", "error"],
    looking,
  );
  const estimate = find.credits.estimateForCount;
  const stop = stopLabel(find);
  return (
    <section aria-label="Preview" className="space-y-3">
      <p
        className="flex items-center gap-2 text-zinc-700 dark:text-zinc-300"
        aria-live="polite"
        data-testid="find-progress"
      >
        {looking ? <Spinner className="text-indigo-500" /> : null}
        {looking ? (find.phase === "plan" ? "Planning searches…" : "Verifying candidates…") : "Preview ready:"}{" "}
        <span className="tabular-nums">{findCounts(find)}</span>
      </p>
      {stop ? <p className="text-amber-800 dark:text-amber-300">{stop}</p> : null}
      {candidates ? (
        <CandidateTable candidates={byOutcome(candidates)} criteria={find.criteria} label="Preview candidates" />
      ) : null}
      {!looking ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1">
          <dt className="text-zinc-600 dark:text-zinc-400">Spent on the preview</dt>
          <dd className="font-medium tabular-nums">{plural(find.credits.spent, "credit")}</dd>
          <dt className="text-zinc-600 dark:text-zinc-400">Estimate for {plural(find.count, "row")}</dt>
          <dd className="font-medium tabular-nums" data-testid="find-estimate">
            {estimate === null ? "Unknown: no match yet" : `about ${plural(estimate, "credit")}`}
          </dd>
        </dl>
      ) : null}
    </section>
  );
}
