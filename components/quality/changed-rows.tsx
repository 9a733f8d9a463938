import type { EvaluationResult } from "../data/types";
import { CheckIcon } from "../ui/icons";
import { changedResults } from "./quality-format";

/**
 * The rows an evaluation moved: right before and wrong now, or wrong before and right now. The
 * rest agree with the column and say nothing about the new settings.
 */
export function ChangedRows({
  results,
  rowLabel,
}: {
  results: EvaluationResult[];
  rowLabel: (rowId: string) => string | undefined;
}) {
  // In the grid's terms: by row name, "Lead 9" before "Lead 10"; the API orders them by id.
  const name = (rowId: string) => rowLabel(rowId) ?? rowId;
  const changed = changedResults(results).sort((a, b) =>
    name(a.rowId).localeCompare(name(b.rowId), undefined, { numeric: true }),
  );
  const fixed = changed.filter((r) => r.correct).length;
  const broken = changed.length - fixed;
  if (!changed.length)
    return <p className="text-xs text-zinc-600 dark:text-zinc-400">No row changed between right and wrong.</p>;
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
      <table className="w-full text-left text-xs" aria-label="Rows that changed">
        <caption className="px-2.5 py-1.5 text-left text-zinc-600 dark:text-zinc-400">
          {changed.length} {changed.length === 1 ? "row" : "rows"} changed: {fixed} now right, {broken} now wrong
        </caption>
        <thead className="bg-zinc-50 text-zinc-600 dark:bg-zinc-950 dark:text-zinc-400">
          <tr>
            {["Row", "Expected", "Before", "Now"].map((h) => (
              <th key={h} scope="col" className="px-2.5 py-1 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {changed.map((r) => (
            <tr key={r.rowId} data-fixed={r.correct ? "true" : "false"}>
              <th scope="row" className="max-w-24 truncate px-2.5 py-1 font-medium" title={r.rowId}>
                {rowLabel(r.rowId) ?? <span className="font-mono text-[10px]">{r.rowId}</span>}
              </th>
              <td className="px-2.5 py-1 break-words">{r.expected}</td>
              <Verdict value={r.previous.value} right={r.previous.correct} />
              <Verdict value={r.got ?? ""} right={Boolean(r.correct)} title={r.reason ?? undefined} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Verdict({ value, right, title }: { value: string; right: boolean; title?: string }) {
  return (
    <td
      className={`px-2.5 py-1 break-words ${right ? "text-emerald-800 dark:text-emerald-300" : "text-red-700 line-through decoration-red-400/60 dark:text-red-400"}`}
      title={title}
    >
      {right ? <CheckIcon className="mr-1 inline align-[-2px]" /> : null}
      {value || <span className="text-zinc-500 italic no-underline">empty</span>}
      <span className="sr-only">{right ? " (right)" : " (wrong)"}</span>
    </td>
  );
}
