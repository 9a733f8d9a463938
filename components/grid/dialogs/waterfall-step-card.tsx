"use client";
import { useId } from "react";
import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { ArrowDownIcon, ArrowUpIcon, GripIcon, TrashIcon } from "../../ui/icons";
import { settingsError, STEP_KIND_NAMES, stepName, type StepDraft, type StepKind } from "./waterfall-steps-model";

const INPUT =
  "block w-full rounded-md border border-zinc-300 bg-white px-2.5 text-sm text-zinc-900 outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 aria-invalid:border-red-500 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100";
const ICON_BUTTON =
  "inline-flex size-7 shrink-0 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100";

/** One waterfall step: a sortable card whose handle is the only part that starts a drag. */
export function StepCard({
  step,
  index,
  count,
  error,
  onChange,
  onMove,
  onRemove,
}: {
  step: StepDraft;
  index: number;
  count: number;
  /** The API's error about this step, shown when its JSON itself is fine. */
  error?: string;
  onChange: (patch: Partial<Omit<StepDraft, "id">>) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: step.id,
  });
  const id = useId();
  const n = index + 1;
  const name = stepName(step);
  const invalidJson = settingsError(step.settings);
  const problem = invalidJson ?? error;
  const lines = step.settings.split("\n").length;
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-testid="waterfall-step"
      aria-label={`Step ${n}, ${name}`}
      className={`rounded-lg border bg-white p-2.5 dark:bg-zinc-900 ${
        isDragging
          ? "relative z-10 border-indigo-500 shadow-lg ring-2 ring-indigo-500/30"
          : problem
            ? "border-red-300 dark:border-red-800"
            : "border-zinc-200 dark:border-zinc-700"
      }`}
    >
      <div className="flex items-center gap-1.5">
        <button
          type="button"
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={`Drag step ${n}, ${name}`}
          className={`${ICON_BUTTON} cursor-grab touch-none active:cursor-grabbing`}
        >
          <GripIcon />
        </button>
        <span
          aria-hidden
          className="inline-flex size-5 shrink-0 items-center justify-center rounded-full bg-indigo-50 text-xs font-semibold text-indigo-700 dark:bg-indigo-950 dark:text-indigo-200"
        >
          {n}
        </span>
        <span className="shrink-0 rounded bg-zinc-100 px-1.5 py-0.5 text-xs font-medium text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
          {STEP_KIND_NAMES[step.kind as StepKind] ?? step.kind}
        </span>
        <input
          className={`${INPUT} h-7 min-w-0 flex-1`}
          aria-label={`Step ${n} label`}
          placeholder="Label"
          maxLength={100}
          value={step.label}
          onChange={(e) => onChange({ label: e.target.value })}
        />
        <button
          type="button"
          className={ICON_BUTTON}
          aria-label={`Move step ${n} up`}
          title="Move up"
          disabled={index === 0}
          onClick={() => onMove(index - 1)}
        >
          <ArrowUpIcon />
        </button>
        <button
          type="button"
          className={ICON_BUTTON}
          aria-label={`Move step ${n} down`}
          title="Move down"
          disabled={index === count - 1}
          onClick={() => onMove(index + 1)}
        >
          <ArrowDownIcon />
        </button>
        <button
          type="button"
          className={`${ICON_BUTTON} hover:text-red-600 dark:hover:text-red-400`}
          aria-label={`Remove step ${n}`}
          title="Remove"
          onClick={onRemove}
        >
          <TrashIcon />
        </button>
      </div>
      <label htmlFor={`${id}-settings`} className="sr-only">
        Step {n} settings
      </label>
      <textarea
        id={`${id}-settings`}
        className={`${INPUT} mt-2 py-1.5 font-mono text-xs`}
        rows={Math.min(Math.max(lines, 3), 10)}
        spellCheck={false}
        value={step.settings}
        onChange={(e) => onChange({ settings: e.target.value })}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-error` : undefined}
      />
      {problem ? (
        // Announced when the API names this step; a JSON slip while typing is only described.
        <p
          id={`${id}-error`}
          role={invalidJson ? undefined : "alert"}
          className="mt-1 text-xs text-red-600 dark:text-red-400"
        >
          {problem}
        </p>
      ) : null}
    </li>
  );
}
