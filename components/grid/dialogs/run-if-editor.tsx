"use client";
import type { ColumnView } from "../../data/types";
import { choiceOf, operatorChoices, STATUS_CHOICES } from "../query/filter-ops";
import type { Condition } from "../query/query-state";

// "Run only if": the run condition of an AI column as a list of conditions that must all hold,
// built with the filter bar's operators. A condition the API holds in another shape (or, not) is
// shown as it is, to keep or clear: this editor never rewrites what it cannot show.

const FIELD =
  "h-8 rounded-md border border-zinc-300 bg-white px-2 text-xs text-zinc-900 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100";

export interface RunIfRow {
  column: string;
  choice: string;
  value: string;
}

/** The rows a stored condition is edited as; null when it is not a flat list of conditions. */
export function rowsOfRunIf(runIf: Record<string, unknown> | null): RunIfRow[] | null {
  if (!runIf) return [];
  const list = Array.isArray(runIf.and) ? (runIf.and as unknown[]) : [runIf];
  const rows: RunIfRow[] = [];
  for (const node of list) {
    const c = node as Condition;
    if (typeof c !== "object" || c === null || typeof c.column !== "string") return null;
    rows.push({ column: c.column, ...choiceOfRow(c) });
  }
  return rows;
}

const choiceOfRow = (c: Condition) => {
  const { id, value } = choiceOf(c);
  return { choice: id, value };
};

/** The request's runIf: null for no rows, one condition alone, several and-ed. */
export function runIfOfRows(rows: RunIfRow[], columns: ColumnView[]): Record<string, unknown> | null {
  const built = rows.flatMap((r) => {
    const column = columns.find((c) => c.id === r.column);
    const choice = column && operatorChoices(column).find((o) => o.id === r.choice);
    return choice ? [choice.build(r.column, r.value) as unknown as Record<string, unknown>] : [];
  });
  if (built.length === 0) return null;
  return built.length === 1 ? built[0] : { and: built };
}

export function RunIfEditor({
  rows,
  raw,
  columns,
  onChange,
  onClearRaw,
  error,
}: {
  /** null: the stored condition is not a flat list (shown as `raw`). */
  rows: RunIfRow[] | null;
  raw: Record<string, unknown> | null;
  columns: ColumnView[];
  onChange: (rows: RunIfRow[]) => void;
  onClearRaw: () => void;
  error: React.ReactNode;
}) {
  if (rows === null) {
    return (
      <fieldset>
        <legend className="font-medium">Run only if</legend>
        <pre className="mt-1 overflow-x-auto rounded-md bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-900">
          {JSON.stringify(raw)}
        </pre>
        <button type="button" className="mt-1 text-xs text-indigo-600 hover:underline" onClick={onClearRaw}>
          Remove this condition
        </button>
        {error}
      </fieldset>
    );
  }
  const update = (i: number, patch: Partial<RunIfRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const first = columns[0];
  return (
    <fieldset>
      <legend className="font-medium">Run only if</legend>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        {rows.length === 0
          ? "Runs for every row. Add conditions to run it only for the rows that match; the others are skipped."
          : "Runs only for rows that match every condition; the others are skipped, at no cost."}
      </p>
      <div className="mt-1.5 space-y-1.5">
        {rows.map((row, i) => {
          const column = columns.find((c) => c.id === row.column);
          const choices = column ? operatorChoices(column) : [];
          const input = choices.find((o) => o.id === row.choice)?.input ?? "none";
          return (
            <div key={i} className="flex flex-wrap items-center gap-1.5">
              <select
                aria-label="Column"
                className={FIELD}
                value={row.column}
                onChange={(e) => update(i, { column: e.target.value, choice: "isNotEmpty", value: "" })}
              >
                {columns.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
              <select
                aria-label="Condition"
                className={FIELD}
                value={row.choice}
                onChange={(e) => update(i, { choice: e.target.value })}
              >
                {choices.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.label}
                  </option>
                ))}
              </select>
              {input === "none" ? null : input === "status" ? (
                <select
                  aria-label="Status"
                  className={FIELD}
                  value={row.value}
                  onChange={(e) => update(i, { value: e.target.value })}
                >
                  <option value="" />
                  {STATUS_CHOICES.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  aria-label="Value"
                  className={`${FIELD} w-36`}
                  value={row.value}
                  onChange={(e) => update(i, { value: e.target.value })}
                />
              )}
              <button
                type="button"
                aria-label="Remove condition"
                className="px-1 text-zinc-500 hover:text-red-600"
                onClick={() => onChange(rows.filter((_, j) => j !== i))}
              >
                ×
              </button>
            </div>
          );
        })}
      </div>
      {first ? (
        <button
          type="button"
          className="mt-1.5 text-xs text-indigo-600 hover:underline"
          onClick={() => onChange([...rows, { column: first.id, choice: "isNotEmpty", value: "" }])}
        >
          + Add condition
        </button>
      ) : null}
      {error}
    </fieldset>
  );
}
