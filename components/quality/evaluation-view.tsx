"use client";
import { useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { api, columnPath, errorMessage } from "../data/api";
import { isEvaluating, keys, useEvaluation } from "../data/queries";
import type { ColumnView } from "../data/types";
import { usePermissions } from "../auth/use-permissions";
import { Button } from "../ui/button";
import { formatCount, plural, timeAgo } from "../ui/format";
import { Spinner } from "../ui/spinner";
import { useToast } from "../ui/toast";
import { ChangedRows } from "./changed-rows";
import { percent, pointsDelta, STATUS_LABEL } from "./quality-format";
import type { Draft } from "./try-instructions";

/**
 * One evaluation: its progress while it runs (polled), then the column's old accuracy against
 * the new one, the rows whose verdict changed, and applying its settings to the column.
 */
export function EvaluationView({
  baseId,
  column,
  evaluationId,
  rowLabel,
  onBack,
}: {
  baseId: string;
  column: ColumnView;
  evaluationId: string;
  rowLabel: (rowId: string) => string | undefined;
  /** Back to the form, with this evaluation's settings to start from. */
  onBack: (settings?: Draft) => void;
}) {
  const { data: evaluation, error } = useEvaluation(evaluationId);
  const qc = useQueryClient();
  const toast = useToast();
  const perms = usePermissions();
  const [busy, setBusy] = useState(false);
  const status = evaluation?.status;

  // The list shows status and accuracy too: refresh it when this one settles.
  useEffect(() => {
    if (status && !isEvaluating({ status }))
      void qc.invalidateQueries({ queryKey: keys.evaluations(baseId, column.id) });
  }, [status, qc, baseId, column.id]);

  async function act(path: string, body: object | undefined, after: () => unknown) {
    setBusy(true);
    try {
      await api(path, { method: "POST", body });
      await qc.invalidateQueries({ queryKey: keys.evaluation(evaluationId) });
      await after();
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  const cancel = (runId: string) => act(`/api/v1/runs/${encodeURIComponent(runId)}/cancel`, {}, () => undefined);
  const apply = () =>
    act(`${columnPath(baseId, column.id)}/evaluations/${encodeURIComponent(evaluationId)}/apply`, undefined, () => {
      toast.success(`“${column.name}” now uses the evaluated settings.`);
      return Promise.all([
        qc.invalidateQueries({ queryKey: keys.structure(baseId) }),
        qc.invalidateQueries({ queryKey: keys.evaluations(baseId, column.id) }),
        qc.invalidateQueries({ queryKey: keys.quality(baseId, column.id) }),
      ]);
    });

  if (error) {
    return (
      <div className="space-y-2">
        <p role="alert" className="text-red-700 dark:text-red-400">
          {errorMessage(error)}
        </p>
        <Button size="sm" variant="ghost" onClick={() => onBack()}>
          Back
        </Button>
      </div>
    );
  }
  if (!evaluation) {
    return (
      <p className="flex items-center gap-2 text-zinc-600 dark:text-zinc-400">
        <Spinner /> Loading the evaluation…
      </p>
    );
  }

  const { counts } = evaluation;
  const finished = counts.done + counts.error + counts.cancelled;
  const running = isEvaluating(evaluation);
  const delta = pointsDelta(evaluation.previousAccuracy, evaluation.accuracy);
  return (
    <div className="space-y-3" data-testid="evaluation" data-status={evaluation.status}>
      <div className="flex items-center gap-2">
        <h3 className="flex-1 font-semibold">Evaluation</h3>
        <span className="flex items-center gap-1.5 text-xs font-medium" data-testid="evaluation-status">
          {evaluation.status === "running" ? <Spinner className="text-indigo-500" /> : null}
          {STATUS_LABEL[evaluation.status]}
        </span>
      </div>
      <div className="space-y-1">
        <div
          role="progressbar"
          aria-label="Evaluation progress"
          aria-valuemin={0}
          aria-valuemax={counts.rows}
          aria-valuenow={finished}
          className="h-1.5 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
        >
          <div
            className="h-full rounded-full bg-indigo-500 transition-[width]"
            style={{ width: `${counts.rows ? (100 * finished) / counts.rows : 0}%` }}
          />
        </div>
        <p className="text-xs text-zinc-600 tabular-nums dark:text-zinc-400" data-testid="evaluation-counts">
          {formatCount(finished)} of {plural(counts.rows, "row")} · {formatCount(counts.correct)} right ·{" "}
          {formatCount(counts.incorrect)} wrong
          {counts.error ? ` · ${formatCount(counts.error)} failed` : ""}
          {counts.cancelled ? ` · ${formatCount(counts.cancelled)} cancelled` : ""} ·{" "}
          {plural(evaluation.creditsSpent, "credit")}
        </p>
      </div>
      <section aria-label="Accuracy" className="grid grid-cols-2 gap-2" data-testid="evaluation-accuracy">
        <div className="rounded-lg bg-zinc-50 px-2.5 py-1.5 dark:bg-zinc-950">
          <p className="text-[11px] text-zinc-600 dark:text-zinc-400">Column now</p>
          <p className="text-lg font-semibold tabular-nums">{percent(evaluation.previousAccuracy)}</p>
        </div>
        <div className="rounded-lg bg-indigo-50 px-2.5 py-1.5 dark:bg-indigo-950/60">
          <p className="text-[11px] text-zinc-600 dark:text-zinc-400">
            {running ? "New settings so far" : "New settings"}
          </p>
          <p className="text-lg font-semibold tabular-nums">
            {percent(evaluation.accuracy)}
            {delta && !running ? (
              <span className="ml-1.5 text-xs font-medium text-zinc-600 dark:text-zinc-400">{delta}</span>
            ) : null}
          </p>
        </div>
      </section>
      <details className="text-xs">
        <summary className="cursor-pointer text-zinc-600 dark:text-zinc-400">
          Settings
          {evaluation.settings.changed.length
            ? ` (${evaluation.settings.changed.join(", ")} changed)`
            : " (same as the column)"}
        </summary>
        <p
          className="mt-1 max-h-32 overflow-y-auto rounded bg-zinc-50 p-2 whitespace-pre-wrap dark:bg-zinc-950"
          data-testid="evaluation-instructions"
        >
          {evaluation.settings.instructions}
        </p>
        <p className="mt-1 font-mono text-zinc-600 dark:text-zinc-400">
          {evaluation.settings.model}
          {evaluation.settings.tools.length ? ` · ${evaluation.settings.tools.join(", ")}` : ""}
        </p>
      </details>
      {running ? null : <ChangedRows results={evaluation.results} rowLabel={rowLabel} />}
      <div className="flex flex-wrap items-center justify-end gap-2">
        {evaluation.appliedAt ? (
          <p className="mr-auto text-xs text-emerald-700 dark:text-emerald-400">
            Applied {timeAgo(evaluation.appliedAt)}
          </p>
        ) : null}
        <Button
          size="sm"
          variant="ghost"
          onClick={() =>
            onBack({ instructions: evaluation.settings.instructions, model: evaluation.settings.model, limit: "" })
          }
          disabled={busy}
          deniedReason={perms.reason("runs:write", "start evaluations")}
        >
          Try other instructions
        </Button>
        {running ? (
          <Button
            size="sm"
            variant="ghost"
            className="text-red-700 dark:text-red-400"
            disabled={busy}
            onClick={() => void cancel(evaluation.runId)}
            deniedReason={perms.reason("runs:write", "cancel evaluations")}
          >
            Cancel evaluation
          </Button>
        ) : null}
        {evaluation.status === "done" && !evaluation.appliedAt ? (
          <Button
            size="sm"
            variant="primary"
            disabled={busy}
            onClick={() => void apply()}
            deniedReason={perms.reason("schema:write", "change columns")}
          >
            Apply to column
          </Button>
        ) : null}
      </div>
    </div>
  );
}
