import type { CellView } from "../../data/types";
import { AlertIcon, CheckIcon, ExternalIcon } from "../../ui/icons";
import { hostOf, isLowConfidence, parseSources } from "./cell-state";
import { StepTrace } from "./step-trace";

/** What an AI cell holds: its error, value, confidence, sources with excerpts and details. */
export function CellDetails({ cell, threshold }: { cell: CellView | undefined; threshold: number }) {
  const meta = cell?.metadata;
  const score = meta?.confidenceScore;
  const sources = parseSources(cell);
  const low = isLowConfidence(cell, threshold);
  return (
    <div className="space-y-4 px-4 py-3">
      {cell?.error ? (
        <div className="flex gap-2 rounded-lg bg-red-50 p-3 text-red-800 dark:bg-red-950/60 dark:text-red-200">
          <AlertIcon className="mt-0.5 shrink-0" />
          <p>
            <span className="font-mono text-xs font-semibold">{cell.error.code}</span>
            <br />
            {cell.error.message || "The cell failed."}
          </p>
        </div>
      ) : null}
      {cell?.value ? <p className="max-h-32 overflow-y-auto break-words whitespace-pre-wrap">{cell.value}</p> : null}
      {typeof score === "number" ? (
        <section aria-label="Confidence">
          <div className="mb-1 flex items-baseline justify-between text-xs">
            <span className="font-medium text-zinc-600 dark:text-zinc-400">Confidence</span>
            <span
              className={`font-semibold tabular-nums ${low ? "text-amber-700 dark:text-amber-400" : "text-emerald-700 dark:text-emerald-400"}`}
            >
              {Math.round(score * 100)}%{low ? " · below review threshold" : ""}
            </span>
          </div>
          <div
            role="meter"
            aria-label="Confidence"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(score * 100)}
            className="h-1.5 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
          >
            <div
              className={`h-full rounded-full ${low ? "bg-amber-500" : "bg-emerald-500"}`}
              style={{ width: `${Math.max(2, Math.min(100, score * 100))}%` }}
            />
          </div>
        </section>
      ) : null}
      {sources.length ? (
        <section aria-label="Sources">
          <h3 className="mb-1.5 text-xs font-medium text-zinc-600 dark:text-zinc-400">Sources</h3>
          <ol className="space-y-2">
            {sources.map((s) => (
              <li key={s.url} className="rounded-lg border border-zinc-200 p-2.5 dark:border-zinc-700">
                <a
                  href={s.url}
                  target="_blank"
                  rel="noopener noreferrer nofollow"
                  className="flex items-center gap-1.5 font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                >
                  <span className="truncate">{s.label}</span>
                  <ExternalIcon className="shrink-0 text-xs" />
                </a>
                <p className="truncate text-xs text-zinc-500 dark:text-zinc-400">{hostOf(s.url)}</p>
                {s.excerpt ? (
                  <blockquote className="mt-1.5 line-clamp-4 border-l-2 border-zinc-300 pl-2 text-xs text-zinc-600 italic dark:border-zinc-600 dark:text-zinc-400">
                    {s.excerpt}
                  </blockquote>
                ) : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      <StepTrace cell={cell} />
      {meta?.additionalDetails ? (
        <section aria-label="Additional details">
          <h3 className="mb-1 text-xs font-medium text-zinc-600 dark:text-zinc-400">Details</h3>
          <p className="break-words whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">{meta.additionalDetails}</p>
        </section>
      ) : null}
      {cell?.verified ? (
        <p className="flex items-center gap-1.5 text-xs font-medium text-emerald-700 dark:text-emerald-400">
          <CheckIcon /> Verified by a reviewer: never regenerated unless forced.
        </p>
      ) : null}
      {cell?.stale ? (
        <p className="rounded-md bg-amber-50 px-2.5 py-1.5 text-xs text-amber-800 dark:bg-amber-950/50 dark:text-amber-200">
          Out of date: the column’s inputs or settings changed since this value was generated.
        </p>
      ) : null}
    </div>
  );
}

const BADGES: Record<string, string> = {
  done: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200",
  error: "bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-200",
  running: "bg-indigo-100 text-indigo-800 dark:bg-indigo-900/60 dark:text-indigo-200",
  pending: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  idle: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  cancelled: "bg-amber-100 text-amber-800 dark:bg-amber-900/60 dark:text-amber-200",
  skipped: "bg-zinc-100 text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400",
  not_found: "bg-sky-100 text-sky-800 dark:bg-sky-900/60 dark:text-sky-200",
};

export function StatusBadge({ cell }: { cell: CellView | undefined }) {
  const status = cell?.metadata?.suppliedByUser ? "supplied" : (cell?.status ?? "idle");
  const label =
    {
      done: "Done",
      error: "Failed",
      running: "Running",
      pending: "Queued",
      idle: "Not run",
      supplied: "Entered by hand",
      cancelled: "Cancelled",
      skipped: "Skipped (run condition not met)",
      not_found: "No data found",
    }[status] ?? status;
  return (
    <span className={`rounded-full px-2 py-0.5 text-[11px] font-medium ${BADGES[status] ?? BADGES.idle}`}>{label}</span>
  );
}
