"use client";
import { useEffect, useRef, useState } from "react";
import { errorMessage } from "../data/api";
import { useColumnQuality } from "../data/queries";
import type { ColumnQuality, ColumnView } from "../data/types";
import { usePermissions } from "../auth/use-permissions";
import { Button } from "../ui/button";
import { formatCount } from "../ui/format";
import { Spinner } from "../ui/spinner";
import { EvaluationList } from "./evaluation-list";
import { EvaluationView } from "./evaluation-view";
import { decimal, percent } from "./quality-format";
import { ReliabilityChart } from "./reliability-chart";
import { ReviewThreshold } from "./review-threshold";
import { TryInstructions, type Draft } from "./try-instructions";

/** What the lower half of the panel shows: nothing yet, the try form, or one evaluation. */
type Mode = { kind: "idle" } | { kind: "form"; draft?: Draft } | { kind: "evaluation"; id: string; draft?: Draft };

/**
 * A column's quality beside the grid (keyed by the column, so another column starts afresh): how often reviewers agreed with the model, how well its
 * confidence predicts that, the review threshold it suggests, and evaluations of other settings.
 */
export function QualityPanel({
  baseId,
  column,
  rowLabel,
  onClose,
}: {
  baseId: string;
  column: ColumnView;
  /** The row's name in the grid (its primary value), when the grid has the row loaded. */
  rowLabel: (rowId: string) => string | undefined;
  onClose: () => void;
}) {
  const quality = useColumnQuality(baseId, column.id);
  const perms = usePermissions();
  const [mode, setMode] = useState<Mode>({ kind: "idle" });
  const panel = useRef<HTMLElement>(null);
  // Opened from a menu: focus moves into the panel, not back to the menu button.
  useEffect(() => panel.current?.focus(), []);

  return (
    <aside
      ref={panel}
      tabIndex={-1}
      aria-label={`Quality of ${column.name}`}
      className="flex w-[26rem] shrink-0 flex-col border-l border-zinc-200 bg-white outline-none dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="quality-panel"
    >
      <header className="flex items-center gap-2 border-b border-zinc-200 px-4 py-2.5 dark:border-zinc-800">
        <h2 className="min-w-0 flex-1 truncate font-semibold">
          Quality <span className="font-normal text-zinc-500 dark:text-zinc-400">· {column.name}</span>
        </h2>
        <Button size="sm" variant="ghost" onClick={onClose} aria-label="Close quality panel">
          Close
        </Button>
      </header>
      <div className="min-h-0 flex-1 divide-y divide-zinc-200 overflow-y-auto text-sm dark:divide-zinc-800">
        {quality.error ? (
          <p role="alert" className="px-4 py-3 text-red-700 dark:text-red-400">
            {errorMessage(quality.error)}
          </p>
        ) : !quality.data ? (
          <p className="flex items-center gap-2 px-4 py-3 text-zinc-600 dark:text-zinc-400">
            <Spinner /> Loading quality…
          </p>
        ) : (
          <Overview baseId={baseId} column={column} quality={quality.data} />
        )}
        <section aria-label="Evaluation" className="space-y-3 px-4 py-3">
          {mode.kind === "idle" ? (
            <div className="flex items-center gap-2">
              <p className="flex-1 text-xs text-zinc-600 dark:text-zinc-400">
                Re-answer the reviewed rows with other settings and compare.
              </p>
              <Button
                size="sm"
                onClick={() => setMode({ kind: "form" })}
                deniedReason={perms.reason("runs:write", "start evaluations")}
              >
                Try new instructions…
              </Button>
            </div>
          ) : mode.kind === "form" ? (
            <TryInstructions
              baseId={baseId}
              column={column}
              initial={mode.draft}
              onCancel={() => setMode({ kind: "idle" })}
              onStarted={(id, draft) => setMode({ kind: "evaluation", id, draft })}
            />
          ) : (
            <EvaluationView
              baseId={baseId}
              column={column}
              evaluationId={mode.id}
              rowLabel={rowLabel}
              onBack={(settings) => setMode({ kind: "form", draft: mode.draft ?? settings })}
            />
          )}
        </section>
        <EvaluationList
          baseId={baseId}
          columnId={column.id}
          shownId={mode.kind === "evaluation" ? mode.id : null}
          onShow={(id) => setMode({ kind: "evaluation", id })}
        />
      </div>
    </aside>
  );
}

function Overview({ baseId, column, quality }: { baseId: string; column: ColumnView; quality: ColumnQuality }) {
  const codes = Object.entries(quality.errors.byCode).sort((a, b) => b[1] - a[1]);
  return (
    <>
      <section aria-label="Agreement" className="px-4 py-3">
        <dl className="grid grid-cols-3 gap-2" data-testid="quality-stats">
          <Stat label="Agreement" value={percent(quality.agreement)} wide />
          <Stat label="Needs review" value={formatCount(quality.needsReview)} />
          <Stat label="Reviewed" value={formatCount(quality.reviewed)} />
          <Stat label="Accepted" value={formatCount(quality.accepted)} />
          <Stat label="Edited" value={formatCount(quality.edited)} />
        </dl>
        {quality.reviewed === 0 ? (
          <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
            No cell of this column is reviewed yet. Accept or edit cells in review mode to measure it.
          </p>
        ) : null}
      </section>
      <section aria-labelledby="quality-reliability" className="space-y-2 px-4 py-3">
        <div className="flex items-baseline justify-between gap-2">
          <h3
            id="quality-reliability"
            className="text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400"
          >
            Reliability
          </h3>
          <p
            className="text-xs text-zinc-600 dark:text-zinc-400"
            title="The gap between confidence and agreement, weighted by cells: 0 is perfectly calibrated."
          >
            Calibration error{" "}
            <span className="font-semibold text-zinc-900 tabular-nums dark:text-zinc-100">
              {decimal(quality.expectedCalibrationError)}
            </span>
          </p>
        </div>
        <ReliabilityChart
          buckets={quality.byConfidence}
          label={`Reliability of ${column.name}: agreement by confidence`}
        />
        <p className="text-[11px] text-zinc-500 dark:text-zinc-400">
          Bars: share of reviewed cells accepted as they were, per confidence tenth. Dots: mean confidence. Dashed:
          perfect calibration.
        </p>
      </section>
      <ReviewThreshold baseId={baseId} column={column} quality={quality} />
      <section aria-labelledby="quality-errors" className="px-4 py-3">
        <h3
          id="quality-errors"
          className="text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400"
        >
          Errors <span className="font-normal tabular-nums normal-case">({formatCount(quality.errors.count)})</span>
        </h3>
        {codes.length ? (
          <ul className="mt-1.5 space-y-1" aria-label="Errors by code">
            {codes.map(([code, count]) => (
              <li key={code} className="flex items-center justify-between gap-2">
                <span className="font-mono text-xs">{code}</span>
                <span className="tabular-nums">{formatCount(count)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">No failed cells.</p>
        )}
      </section>
    </>
  );
}

function Stat({ label, value, wide }: { label: string; value: string; wide?: boolean }) {
  return (
    <div
      className={`flex flex-col-reverse rounded-lg bg-zinc-50 px-2.5 py-1.5 dark:bg-zinc-950 ${wide ? "col-span-2" : ""}`}
    >
      <dt className="text-[11px] text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className={`font-semibold tabular-nums ${wide ? "text-2xl" : "text-lg"}`}>{value}</dd>
    </div>
  );
}
