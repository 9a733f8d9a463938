"use client";
import { useState } from "react";
import { useCandidates, useFinds, type CandidateStatus, type FindView } from "../data/finds";
import { errorMessage } from "../data/api";
import { timeAgo } from "../ui/format";
import { Spinner } from "../ui/spinner";
import { CandidateTable } from "./candidate-table";
import { findCounts } from "./find-progress";

// The base's finds, and per find what it did not add and why: rejected, unclear, excluded and
// failed candidates with their verdicts and sources.

const FILTERS: { label: string; statuses: CandidateStatus[] }[] = [
  { label: "Rejected", statuses: ["rejected"] },
  { label: "Unclear", statuses: ["unclear"] },
  { label: "Excluded", statuses: ["excluded"] },
  { label: "Errors", statuses: ["error"] },
  { label: "Matched", statuses: ["matched"] },
];

const countOf = (f: FindView, label: string) =>
  ({
    Rejected: f.candidates.rejected,
    Unclear: f.candidates.unclear,
    Excluded: f.candidates.excluded,
    Errors: f.candidates.errors,
    Matched: f.candidates.matched,
  })[label] ?? 0;

export function FindsPanel({ baseId, initialFindId }: { baseId: string; initialFindId?: string }) {
  const { data: finds, error } = useFinds(baseId, { poll: true });
  const [chosen, setChosen] = useState<string | undefined>(initialFindId);
  if (error) return <p role="alert">{errorMessage(error)}</p>;
  if (!finds) return <Spinner />;
  if (finds.length === 0) return <p className="text-zinc-600 dark:text-zinc-400">No finds in this base yet.</p>;
  const find = finds.find((f) => f.id === chosen) ?? finds[0];
  return (
    <div className="space-y-3">
      <ul aria-label="Finds" className="max-h-40 space-y-1 overflow-y-auto">
        {finds.map((f) => (
          <li key={f.id}>
            <button
              type="button"
              aria-pressed={f.id === find.id}
              onClick={() => setChosen(f.id)}
              className={`w-full rounded-md px-2 py-1.5 text-left ${f.id === find.id ? "bg-indigo-50 ring-1 ring-indigo-300 dark:bg-indigo-950 dark:ring-indigo-700" : "hover:bg-zinc-50 dark:hover:bg-zinc-800"}`}
            >
              <span className="block truncate font-medium">{f.query}</span>
              <span className="block text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
                {f.preview ? "Preview · " : ""}
                {f.phase === "done" ? f.status : "looking"} · {findCounts(f)} · {timeAgo(f.createdAt)}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <FindCandidates key={find.id} find={find} />
    </div>
  );
}

function FindCandidates({ find }: { find: FindView }) {
  const [filter, setFilter] = useState(FILTERS[0]);
  const { data, error } = useCandidates(find.baseId, find.id, filter.statuses);
  return (
    <section aria-label="Candidates" className="space-y-2">
      <div role="group" aria-label="Show candidates" className="flex flex-wrap gap-1.5">
        {FILTERS.map((f) => (
          <button
            key={f.label}
            type="button"
            aria-pressed={f.label === filter.label}
            onClick={() => setFilter(f)}
            className={`rounded-full border px-2.5 py-0.5 text-xs font-medium ${f.label === filter.label ? "border-indigo-500 bg-indigo-600 text-white" : "border-zinc-300 text-zinc-700 hover:bg-zinc-50 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800"}`}
          >
            {f.label} <span className="tabular-nums opacity-80">{countOf(find, f.label)}</span>
          </button>
        ))}
      </div>
      {error ? <p role="alert">{errorMessage(error)}</p> : null}
      {data ? <CandidateTable candidates={data} criteria={find.criteria} label={`${filter.label} candidates`} /> : null}
    </section>
  );
}
