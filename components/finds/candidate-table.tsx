"use client";
import type { FindCandidate, FindVerdict, FindView } from "../data/finds";
import { candidateReason } from "./find-form";
import { ExternalIcon } from "../ui/icons";

// Candidates with a chip per criterion; a chip opens to the verdict's reasoning and its sources
// (each a page the find read, with the words that show it).

const CHIP: Record<FindVerdict["satisfied"], string> = {
  yes: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  no: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300",
  unclear: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-300",
};

const STATUS: Record<FindCandidate["status"], string> = {
  pending: "text-zinc-500",
  running: "text-indigo-700 dark:text-indigo-300",
  matched: "text-emerald-700 dark:text-emerald-400",
  rejected: "text-red-700 dark:text-red-400",
  unclear: "text-amber-700 dark:text-amber-400",
  excluded: "text-zinc-600 dark:text-zinc-400",
  error: "text-red-700 dark:text-red-400",
};

function VerdictChip({ verdict, criterion }: { verdict: FindVerdict | undefined; criterion: string }) {
  if (!verdict) return <span className="text-zinc-400">—</span>;
  return (
    <details className="group max-w-64">
      <summary
        aria-label={`${criterion}: ${verdict.satisfied}`}
        title={verdict.reasoning}
        className={`inline-flex cursor-pointer list-none rounded-full px-2 py-0.5 text-xs font-medium ${CHIP[verdict.satisfied]}`}
      >
        {verdict.satisfied}
      </summary>
      <div className="mt-1.5 space-y-1.5 rounded-md border border-zinc-200 bg-zinc-50 p-2 text-xs dark:border-zinc-700 dark:bg-zinc-950">
        <p>{verdict.reasoning}</p>
        <p className="text-zinc-600 dark:text-zinc-400">Confidence {Math.round(verdict.confidence * 100)}%</p>
        {verdict.sources.length === 0 ? (
          <p className="text-zinc-600 dark:text-zinc-400">No source.</p>
        ) : (
          <ul className="space-y-1.5">
            {verdict.sources.map((s) => (
              <li key={`${s.url}|${s.excerpt}`}>
                <a
                  href={s.url}
                  target="_blank"
                  rel="noreferrer noopener"
                  className="break-all text-indigo-700 underline dark:text-indigo-300"
                >
                  {s.title || s.url}
                </a>
                <blockquote className="mt-0.5 border-l-2 border-zinc-300 pl-2 text-zinc-700 italic dark:border-zinc-600 dark:text-zinc-300">
                  {s.excerpt}
                </blockquote>
              </li>
            ))}
          </ul>
        )}
      </div>
    </details>
  );
}

export function CandidateTable({
  candidates,
  criteria,
  label,
}: {
  candidates: FindCandidate[];
  criteria: FindView["criteria"];
  label: string;
}) {
  if (candidates.length === 0) return <p className="text-zinc-600 dark:text-zinc-400">No candidates here.</p>;
  const th = "px-2 py-1.5 text-left text-xs font-medium text-zinc-600 dark:text-zinc-400";
  return (
    <div className="overflow-x-auto rounded-md border border-zinc-200 dark:border-zinc-800">
      <table aria-label={label} className="w-full text-sm">
        <thead className="bg-zinc-50 dark:bg-zinc-950">
          <tr>
            <th className={th}>Name</th>
            <th className={th}>Status</th>
            {criteria.map((k) => (
              <th key={k.id} className={th}>
                {k.text}
              </th>
            ))}
            <th className={th}>Why</th>
          </tr>
        </thead>
        <tbody>
          {candidates.map((c) => (
            <tr key={c.id} data-candidate={c.name} className="border-t border-zinc-200 align-top dark:border-zinc-800">
              <td className="min-w-40 px-2 py-1.5">
                <div className="font-medium">{c.name}</div>
                {c.url ? (
                  <a
                    href={c.url}
                    target="_blank"
                    rel="noreferrer noopener"
                    className="inline-flex items-center gap-1 text-xs whitespace-nowrap text-indigo-700 hover:underline dark:text-indigo-300"
                  >
                    {c.url.replace(/^https?:\/\//, "").replace(/\/$/, "")} <ExternalIcon className="size-3" />
                  </a>
                ) : null}
              </td>
              <td className={`px-2 py-1.5 text-xs font-medium ${STATUS[c.status]}`}>{c.status}</td>
              {criteria.map((k) => (
                <td key={k.id} className="px-2 py-1.5">
                  <VerdictChip verdict={c.verdicts.find((v) => v.criterionId === k.id)} criterion={k.text} />
                </td>
              ))}
              <td className="max-w-72 px-2 py-1.5 text-xs text-zinc-700 dark:text-zinc-300">
                {candidateReason(c, criteria) ?? ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
