"use client";
import { FIND_LIMITS } from "@/lib/domain/finds/schemas.ts";
import { Button } from "../ui/button";
import { PlusIcon, SparkleIcon, TrashIcon } from "../ui/icons";
import { suggestCriteria, type FindForm } from "./find-form";

const INPUT =
  "rounded-md border border-zinc-300 bg-white px-2 text-sm text-zinc-900 outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100";

/** The query, its criteria (1 to 10, each verified on the candidate's own pages), count and budget. */
export function FindFields({
  form,
  onChange,
  disabled,
}: {
  form: FindForm;
  onChange: (f: FindForm) => void;
  disabled: boolean;
}) {
  const set = (patch: Partial<FindForm>) => onChange({ ...form, ...patch });
  const setCriterion = (i: number, text: string) =>
    set({ criteria: form.criteria.map((c, j) => (j === i ? text : c)) });
  const suggested = suggestCriteria(form.query);
  return (
    <fieldset disabled={disabled} className="space-y-4">
      <label className="block space-y-1">
        <span className="font-medium">What should the rows be?</span>
        <textarea
          value={form.query}
          onChange={(e) => set({ query: e.target.value })}
          maxLength={FIND_LIMITS.queryChars}
          rows={2}
          placeholder="B2B software companies in Berlin with 50–200 employees"
          className={`${INPUT} block w-full resize-y py-1.5`}
        />
      </label>
      <div className="space-y-1.5">
        <div className="flex items-center justify-between gap-2">
          <span id="find-criteria-label" className="font-medium">
            Criteria
            <span className="ml-1.5 font-normal text-zinc-600 dark:text-zinc-400">
              each one becomes a yes/no/unclear column
            </span>
          </span>
          <Button
            size="sm"
            variant="ghost"
            disabled={suggested.length === 0}
            title="Split the query into criteria (a rule over its phrases, not the AI); edit them after"
            onClick={() => set({ criteria: suggested })}
          >
            <SparkleIcon /> Suggest criteria
          </Button>
        </div>
        <ul aria-labelledby="find-criteria-label" className="space-y-1.5">
          {form.criteria.map((c, i) => (
            <li key={i} className="flex items-center gap-1.5">
              <input
                value={c}
                aria-label={`Criterion ${i + 1}`}
                maxLength={FIND_LIMITS.criterionChars}
                onChange={(e) => setCriterion(i, e.target.value)}
                placeholder={i === 0 ? "Based in Berlin" : "Another criterion"}
                className={`${INPUT} h-8 flex-1`}
              />
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Remove criterion ${i + 1}`}
                disabled={form.criteria.length === 1}
                onClick={() => set({ criteria: form.criteria.filter((_, j) => j !== i) })}
              >
                <TrashIcon />
              </Button>
            </li>
          ))}
        </ul>
        <Button
          size="sm"
          variant="ghost"
          disabled={form.criteria.length >= FIND_LIMITS.criteria}
          onClick={() => set({ criteria: [...form.criteria, ""] })}
        >
          <PlusIcon /> Add criterion
        </Button>
      </div>
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
        <label className="flex items-center gap-2">
          Rows to find
          <input
            type="number"
            min={1}
            max={FIND_LIMITS.maxCount}
            value={form.count}
            onChange={(e) => set({ count: e.target.value })}
            className={`${INPUT} h-8 w-20 text-right tabular-nums`}
          />
        </label>
        <label className="flex items-center gap-2">
          Credit cap (optional)
          <input
            type="number"
            min={1}
            value={form.maxCredits}
            onChange={(e) => set({ maxCredits: e.target.value })}
            placeholder="none"
            className={`${INPUT} h-8 w-24 text-right tabular-nums`}
          />
        </label>
        <label
          className="flex items-center gap-2"
          title="Add candidates whose pages leave a criterion unclear, for review"
        >
          <input
            type="checkbox"
            checked={form.includeUnclear}
            onChange={(e) => set({ includeUnclear: e.target.checked })}
          />
          Include unclear
        </label>
      </div>
    </fieldset>
  );
}
