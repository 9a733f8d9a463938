"use client";
import { useEffect, useRef, useState } from "react";
import type { ColumnView } from "../../data/types";
import { Button } from "../../ui/button";
import { ClockIcon, FilterIcon, PlusIcon } from "../../ui/icons";
import { Menu } from "../../ui/menu";
import { ConditionDialog } from "./condition-dialog";
import { describeCondition } from "./filter-ops";
import { conditionsOf, filterOf, type Condition, type GridQuery } from "./query-state";
import { describeChanged, joinChanged, splitChanged, type ChangedFilter } from "./changed-since";
import { ChangedSinceDialog } from "./changed-since-dialog";
import { isGenerated } from "@/lib/domain/fill/kinds.ts";
import { ViewsMenu } from "./views-menu";

const SEARCH_DEBOUNCE_MS = 250;

const CHIP =
  "inline-flex h-7 items-center gap-1 rounded-full border border-indigo-200 bg-indigo-50 pl-2.5 text-xs font-medium text-indigo-900 dark:border-indigo-800 dark:bg-indigo-950/60 dark:text-indigo-100";

/** Views, filter conditions, sort keys and the search box: everything that decides which rows show, and in what order. */
export function FilterBar({
  baseId,
  columns,
  query,
  onChange,
}: {
  baseId: string;
  columns: ColumnView[];
  query: GridQuery;
  onChange: (q: GridQuery) => void;
}) {
  const [editing, setEditing] = useState<{ index: number | null } | null>(null);
  const [pickingChanged, setPickingChanged] = useState(false);
  // The "Changed since" quick filter sits beside the flat list of conditions, not in it.
  const { rest, changed } = splitChanged(query.filter);
  const conditions = conditionsOf(rest);
  const nameOf = (ref: string) => columns.find((c) => c.id === ref || c.name === ref)?.name ?? ref;
  const generated = columns.filter(isGenerated);

  const setConditions = (next: Condition[]) => onChange({ ...query, filter: joinChanged(filterOf(next), changed) });
  const setChanged = (next: ChangedFilter | null) => onChange({ ...query, filter: joinChanged(rest, next) });
  const sortable = columns.filter((c) => !query.sort.some((k) => k.column === c.id || k.column === c.name));

  return (
    <div
      role="search"
      aria-label="Find rows"
      className="flex flex-wrap items-center gap-2 border-b border-zinc-200 bg-zinc-50/80 px-3 py-1.5 dark:border-zinc-800 dark:bg-zinc-900/60"
    >
      <ViewsMenu baseId={baseId} query={query} onChange={onChange} />
      <span className="h-5 w-px bg-zinc-200 dark:bg-zinc-700" aria-hidden />
      {conditions === null ? (
        <span className={CHIP}>
          Custom filter
          <ChipRemove
            label="Remove the custom filter"
            onClick={() => onChange({ ...query, filter: joinChanged(null, changed) })}
          />
        </span>
      ) : (
        conditions.map((c, i) => (
          <span key={i} className={CHIP}>
            <button
              type="button"
              onClick={() => setEditing({ index: i })}
              className="max-w-64 truncate hover:underline"
              title="Edit this condition"
            >
              {describeCondition(c, columns)}
            </button>
            <ChipRemove
              label={`Remove the condition ${describeCondition(c, columns)}`}
              onClick={() => setConditions(conditions.filter((_, j) => j !== i))}
            />
          </span>
        ))
      )}
      <Button
        size="sm"
        variant="ghost"
        onClick={() => setEditing({ index: null })}
        disabled={columns.length === 0 || conditions === null}
      >
        <FilterIcon /> Filter
      </Button>
      {changed ? (
        <span className={CHIP} data-testid="changed-since-chip">
          <button type="button" onClick={() => setPickingChanged(true)} className="max-w-72 truncate hover:underline">
            {describeChanged(changed, nameOf, generated.length)}
          </button>
          <ChipRemove label="Remove the Changed since filter" onClick={() => setChanged(null)} />
        </span>
      ) : (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => setPickingChanged(true)}
          disabled={generated.length === 0}
          title={generated.length === 0 ? "This base has no AI columns" : undefined}
        >
          <ClockIcon /> Changed since…
        </Button>
      )}
      {query.sort.map((k, i) => (
        <span key={k.column} className={CHIP}>
          <button
            type="button"
            className="hover:underline"
            title="Reverse this sort"
            onClick={() =>
              onChange({
                ...query,
                sort: query.sort.map((s, j) =>
                  j === i ? { ...s, direction: s.direction === "asc" ? "desc" : "asc" } : s,
                ),
              })
            }
          >
            {nameOf(k.column)} {k.direction === "asc" ? "↑" : "↓"}
          </button>
          <ChipRemove
            label={`Stop sorting by ${nameOf(k.column)}`}
            onClick={() => onChange({ ...query, sort: query.sort.filter((_, j) => j !== i) })}
          />
        </span>
      ))}
      {query.sort.length < 5 && sortable.length > 0 ? (
        <Menu
          label="Sort by a column"
          items={sortable.map((c) => ({
            label: c.name,
            onSelect: () => onChange({ ...query, sort: [...query.sort, { column: c.id, direction: "asc" }] }),
          }))}
          className="inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-[13px] font-medium text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
        >
          <PlusIcon /> Sort
        </Menu>
      ) : null}
      <SearchBox value={query.search} onChange={(search) => onChange({ ...query, search })} />
      {pickingChanged ? (
        <ChangedSinceDialog
          generated={generated}
          initial={changed}
          onClose={() => setPickingChanged(false)}
          onSave={(next) => {
            setChanged(next);
            setPickingChanged(false);
          }}
        />
      ) : null}
      {editing && conditions ? (
        <ConditionDialog
          columns={columns}
          initial={editing.index === null ? null : conditions[editing.index]}
          onClose={() => setEditing(null)}
          onSave={(c) => {
            setConditions(
              editing.index === null ? [...conditions, c] : conditions.map((old, j) => (j === editing.index ? c : old)),
            );
            setEditing(null);
          }}
        />
      ) : null}
    </div>
  );
}

function ChipRemove({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      aria-label={label}
      onClick={onClick}
      className="grid size-6 place-items-center rounded-full text-sm text-indigo-700 hover:bg-indigo-100 dark:text-indigo-300 dark:hover:bg-indigo-900"
    >
      ×
    </button>
  );
}

/** Filters as you type: the URL (and the query) follow a moment after the last keystroke. */
function SearchBox({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(onChange);
  latest.current = onChange;
  // Only a change from elsewhere (a view picked, the back button) replaces what is being typed.
  const sent = useRef(value);
  useEffect(() => {
    if (value !== sent.current) setText(value);
    sent.current = value;
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <input
      type="search"
      aria-label="Search rows"
      placeholder="Search rows…"
      value={text}
      maxLength={500}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => {
          sent.current = next;
          latest.current(next);
        }, SEARCH_DEBOUNCE_MS);
      }}
      className="ml-auto h-8 w-56 rounded-md border border-zinc-300 bg-white px-2.5 text-[13px] outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 dark:border-zinc-700 dark:bg-zinc-950"
    />
  );
}
