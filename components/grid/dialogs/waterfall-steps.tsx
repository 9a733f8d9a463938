"use client";
import { useId, useRef, useState } from "react";
import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { Button } from "../../ui/button";
import { PlusIcon } from "../../ui/icons";
import { CONFIG_HINTS } from "./fill-fields";
import { StepCard } from "./waterfall-step-card";
import {
  MAX_STEPS,
  moveStep,
  newStep,
  removeStep,
  STEP_KIND_NAMES,
  STEP_KINDS,
  type StepDraft,
  type StepKind,
  stepName,
  updateStep,
  type WaterfallDraft,
} from "./waterfall-steps-model";

const SELECT =
  "h-8 rounded-md border border-zinc-300 bg-white px-2 text-[13px] text-zinc-900 outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100";

const INSTRUCTIONS =
  "To reorder a step, focus its drag handle and press Space. Move it with the Up and Down arrow keys, press Space again to drop it, or Escape to cancel.";

/**
 * What a screen reader hears while a step moves: the step by number and name, and where it goes.
 * `seen` holds the last position announced: a drag starts over its own card, and saying so would
 * cut off "Picked up".
 */
function announcementsFor(steps: readonly StepDraft[], seen: { over?: UniqueIdentifier | null }): Announcements {
  const at = (id: UniqueIdentifier) => steps.findIndex((s) => s.id === id);
  const step = (id: UniqueIdentifier) => `step ${at(id) + 1}, ${stepName(steps[at(id)] ?? steps[0])}`;
  const capital = (id: UniqueIdentifier) => `S${step(id).slice(1)}`;
  return {
    onDragStart: ({ active }) => {
      seen.over = active.id;
      return `Picked up ${step(active.id)}.`;
    },
    onDragOver: ({ active, over }) => {
      if ((over?.id ?? null) === seen.over) return undefined;
      seen.over = over?.id ?? null;
      return over
        ? `${capital(active.id)}, is over position ${at(over.id) + 1}.`
        : `${capital(active.id)}, is over no position.`;
    },
    onDragEnd: ({ active, over }) =>
      over && over.id !== active.id
        ? `${capital(active.id)}, moved to position ${at(over.id) + 1}.`
        : `${capital(active.id)}, dropped back at position ${at(active.id) + 1}.`,
    onDragCancel: ({ active }) =>
      `Moving ${step(active.id)}, was cancelled; it stays at position ${at(active.id) + 1}.`,
  };
}

/**
 * A waterfall column's steps as an ordered list of cards. Order is what the waterfall tries first,
 * so it is changed by dragging a card's handle (pointer, or Space and the arrow keys) or by its
 * Move up and Move down buttons.
 */
export function WaterfallStepsField({
  draft,
  onChange,
  errorOf,
  error,
  errorId,
}: {
  draft: WaterfallDraft;
  onChange: (d: WaterfallDraft) => void;
  errorOf: (stepId: string) => string | undefined;
  /** An error about the steps as a whole. */
  error?: string;
  errorId: string;
}) {
  const [kind, setKind] = useState<StepKind>("http");
  // The live region stays inside the modal dialog: content outside it is hidden from screen readers.
  const [live, setLive] = useState<HTMLDivElement | null>(null);
  const headingId = useId();
  const seen = useRef<{ over?: UniqueIdentifier | null }>({});
  const sensors = useSensors(
    // A few pixels of travel first, so a click on the handle stays a click.
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const { steps } = draft;
  const setSteps = (next: StepDraft[]) => onChange({ ...draft, steps: next });
  // While a step is lifted, Escape puts it back; it must not also close the dialog.
  const [dragging, setDragging] = useState(false);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragging(false);
    if (!over || active.id === over.id) return;
    const from = steps.findIndex((s) => s.id === active.id);
    setSteps(
      moveStep(
        steps,
        from,
        steps.findIndex((s) => s.id === over.id),
      ),
    );
  };

  return (
    <section
      aria-labelledby={headingId}
      aria-describedby={error ? errorId : undefined}
      onKeyDown={(e) => {
        if (dragging && e.key === "Escape") e.preventDefault();
      }}
    >
      <h3 id={headingId} className="font-medium">
        Steps
      </h3>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        Tried from the top until one gives a valid value. Drag a step by its handle, or use its arrows, to change the
        order.
      </p>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragStart={() => setDragging(true)}
        onDragEnd={onDragEnd}
        onDragCancel={() => setDragging(false)}
        accessibility={{
          announcements: announcementsFor(steps, seen.current),
          screenReaderInstructions: { draggable: INSTRUCTIONS },
          container: live ?? undefined,
        }}
      >
        <SortableContext items={steps.map((s) => s.id)} strategy={verticalListSortingStrategy}>
          <ol className="mt-2 space-y-2" data-testid="waterfall-steps">
            {steps.map((s, i) => (
              <StepCard
                key={s.id}
                step={s}
                index={i}
                count={steps.length}
                error={errorOf(s.id)}
                onChange={(patch) => setSteps(updateStep(steps, s.id, patch))}
                onMove={(to) => setSteps(moveStep(steps, i, to))}
                onRemove={() => setSteps(removeStep(steps, s.id))}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
      <div ref={setLive} />
      {steps.length === 0 ? (
        <p className="mt-2 rounded-md border border-dashed border-zinc-300 px-3 py-2 text-xs text-zinc-500 dark:border-zinc-700 dark:text-zinc-400">
          No steps yet: a waterfall needs at least one.
        </p>
      ) : null}
      <div className="mt-2 flex items-center gap-2">
        <select
          className={SELECT}
          aria-label="Kind of step to add"
          value={kind}
          onChange={(e) => setKind(e.target.value as StepKind)}
        >
          {STEP_KINDS.map((k) => (
            <option key={k} value={k}>
              {STEP_KIND_NAMES[k]}
            </option>
          ))}
        </select>
        <Button
          size="sm"
          disabled={steps.length >= MAX_STEPS}
          title={steps.length >= MAX_STEPS ? `A waterfall has at most ${MAX_STEPS} steps.` : undefined}
          onClick={() => setSteps([...steps, newStep(kind)])}
        >
          <PlusIcon />
          Add step
        </Button>
      </div>
      <p className="mt-1.5 text-xs text-zinc-500 dark:text-zinc-400">{CONFIG_HINTS.waterfall}</p>
      {error ? (
        <p id={errorId} role="alert" className="mt-1 text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </section>
  );
}
