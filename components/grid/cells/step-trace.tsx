import type { CellView } from "../../data/types";

type Step = NonNullable<NonNullable<CellView["metadata"]>["steps"]>[number];

const STATUS: Record<Step["status"], { label: string; className: string }> = {
  found: { label: "found", className: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200" },
  cached: { label: "cached", className: "bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300" },
  not_found: { label: "no data", className: "bg-sky-100 text-sky-800 dark:bg-sky-900/60 dark:text-sky-200" },
  invalid: { label: "invalid", className: "bg-amber-100 text-amber-800 dark:bg-amber-900/60 dark:text-amber-200" },
  error: { label: "error", className: "bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-200" },
  skipped: { label: "not run", className: "bg-zinc-100 text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400" },
};

/** An HTTP or waterfall cell's steps: what each asked, how it ended, what it cost and took. */
export function StepTrace({ cell }: { cell: CellView | undefined }) {
  const steps = cell?.metadata?.steps;
  if (!steps?.length) return null;
  return (
    <section aria-label="Steps">
      <h3 className="mb-1.5 text-xs font-medium text-zinc-600 dark:text-zinc-400">Steps</h3>
      <ol className="space-y-1">
        {steps.map((s) => (
          <li key={s.step} className="flex items-center gap-2 text-xs" data-testid="trace-step">
            <span className="w-4 shrink-0 text-right text-zinc-400 tabular-nums">{s.step + 1}</span>
            <span className="min-w-0 flex-1 truncate" title={s.error?.message ?? s.url ?? s.provider}>
              <span className="font-medium">{s.label ?? s.provider}</span>
              <span className="text-zinc-500 dark:text-zinc-400"> · {s.kind}</span>
            </span>
            <span className={`rounded-full px-1.5 py-px font-medium ${STATUS[s.status].className}`}>
              {STATUS[s.status].label}
            </span>
            <span className="shrink-0 text-right whitespace-nowrap text-zinc-500 tabular-nums dark:text-zinc-400">
              {s.status === "skipped" ? "" : `${s.credits} cr · ${s.ms} ms`}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
