"use client";
import { errorMessage } from "../data/api";
import { useEvaluations } from "../data/queries";
import type { EvaluationSummary } from "../data/types";
import { Button } from "../ui/button";
import { plural, timeAgo } from "../ui/format";
import { percent, STATUS_LABEL } from "./quality-format";

const STATUS_TONE: Record<EvaluationSummary["status"], string> = {
  running: "bg-indigo-100 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200",
  paused: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  done: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  cancelled: "bg-zinc-200 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
};

/** The column's past evaluations, newest first; any of them can be shown again, and applied. */
export function EvaluationList({
  baseId,
  columnId,
  shownId,
  onShow,
}: {
  baseId: string;
  columnId: string;
  shownId: string | null;
  onShow: (id: string) => void;
}) {
  const { data, error } = useEvaluations(baseId, columnId);
  return (
    <section aria-labelledby="quality-evaluations" className="px-4 py-3">
      <h3
        id="quality-evaluations"
        className="text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400"
      >
        Past evaluations
      </h3>
      {error ? (
        <p role="alert" className="mt-1 text-xs text-red-700 dark:text-red-400">
          {errorMessage(error)}
        </p>
      ) : !data ? null : data.length === 0 ? (
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">None yet.</p>
      ) : (
        <ol className="mt-1.5 space-y-2" aria-label="Past evaluations">
          {data.map((e) => (
            <li
              key={e.id}
              className={`rounded-lg border px-2.5 py-2 ${e.id === shownId ? "border-indigo-400 dark:border-indigo-600" : "border-zinc-200 dark:border-zinc-800"}`}
              data-evaluation={e.id}
            >
              <div className="flex items-center gap-2">
                <span className={`rounded-full px-1.5 py-px text-[10px] font-semibold ${STATUS_TONE[e.status]}`}>
                  {STATUS_LABEL[e.status]}
                </span>
                {e.appliedAt ? (
                  <span className="rounded-full bg-violet-100 px-1.5 py-px text-[10px] font-semibold text-violet-800 dark:bg-violet-900/70 dark:text-violet-200">
                    Applied
                  </span>
                ) : null}
                <span
                  className="flex-1 truncate text-xs text-zinc-600 dark:text-zinc-400"
                  title={new Date(e.createdAt).toLocaleString()}
                >
                  {timeAgo(e.createdAt)}
                </span>
                <Button
                  size="sm"
                  variant="ghost"
                  className="h-6 px-1.5 text-xs"
                  onClick={() => onShow(e.id)}
                  aria-label={`Show the evaluation from ${timeAgo(e.createdAt)}`}
                  disabled={e.id === shownId}
                >
                  Show
                </Button>
              </div>
              <p className="mt-1 text-xs tabular-nums">
                <span className="text-zinc-600 dark:text-zinc-400">Accuracy </span>
                {percent(e.previousAccuracy)} → <span className="font-semibold">{percent(e.accuracy)}</span>
                <span className="text-zinc-600 dark:text-zinc-400">
                  {" "}
                  · {plural(e.counts.rows, "row")} · {plural(e.creditsSpent, "credit")}
                </span>
              </p>
              <p className="mt-0.5 truncate text-xs text-zinc-600 dark:text-zinc-400" title={e.settings.instructions}>
                {e.settings.changed.length ? `${e.settings.changed.join(", ")} changed: ` : "Same settings: "}
                <span className="text-zinc-800 dark:text-zinc-200">{e.settings.instructions}</span>
              </p>
              <p className="mt-0.5 truncate font-mono text-[11px] text-zinc-500 dark:text-zinc-400">
                {e.settings.model}
                {e.settings.tools.length ? ` · ${e.settings.tools.join(", ")}` : ""}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
