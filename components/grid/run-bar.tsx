"use client";
import { useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { usePermissions } from "../auth/use-permissions";
import { api, basePath, errorMessage } from "../data/api";
import { keys } from "../data/queries";
import type { RunView } from "../data/types";
import { Button } from "../ui/button";
import { RefreshIcon } from "../ui/icons";
import { formatCount, plural } from "../ui/format";
import { Spinner } from "../ui/spinner";
import { useToast } from "../ui/toast";
import { useLatestRun } from "./use-latest-run";
import { FindMoreButton, useRunFind } from "./find-run";
import { findCounts } from "../finds/find-progress";
import { REVERT_OFFER_MS, RevertRunButton } from "./run-revert";
import { useSchedules } from "../schedules/use-schedules";

/** Remaining time from the rate observed since this run was first seen here. */
function useEta(run: RunView | null): string | null {
  const first = useRef<{ id: string; at: number; finished: number } | null>(null);
  if (run?.status !== "running") return null;
  const finished = run.counts.done + run.counts.error + run.counts.skipped + run.counts.not_found;
  if (first.current?.id !== run.id) first.current = { id: run.id, at: Date.now(), finished };
  const elapsed = (Date.now() - first.current.at) / 1000;
  const rate = (finished - first.current.finished) / Math.max(elapsed, 0.001);
  if (elapsed < 2 || rate <= 0) return null;
  const left = (run.counts.pending + run.counts.running) / rate;
  return left < 60
    ? `${Math.ceil(left)} s left`
    : left < 3600
      ? `${Math.ceil(left / 60)} min left`
      : `${(left / 3600).toFixed(1)} h left`;
}

/**
 * The run bar: the latest run's live progress (done, errors, pending), credits spent and an ETA,
 * with pause, resume and cancel, and "Retry N failed" once it has failed or cancelled cells.
 */
export function RunBar({ baseId }: { baseId: string }) {
  const qc = useQueryClient();
  const toast = useToast();
  const permissions = usePermissions();
  const runDenied = permissions.reason("runs:write", "control runs");
  const rowsDenied = permissions.reason("rows:write", "revert runs");
  const { data: run } = useLatestRun(baseId);
  const eta = useEta(run ?? null);
  const find = useRunFind(baseId, run);
  const schedules = useSchedules(baseId, run?.trigger === "schedule");
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (!run || dismissed === run.id) return null;
  const { counts } = run;
  const { skipped, not_found: notFound } = counts;
  const total = counts.pending + counts.running + counts.done + counts.error + counts.cancelled + skipped + notFound;
  const failed = counts.error + counts.cancelled;
  const active = run.status === "running" || run.status === "paused";
  // An evaluation's rows are not the base's cells: retrying "failed" would re-run nothing of it.
  const evaluation = run.trigger === "evaluation";
  // A find's candidates are not cells either; a stopped find stays, to look for more.
  const finding = run.trigger === "find";
  // A run that finished lately stays, to be reverted; older ones only while they have cells to retry.
  const recent = run.finishedAt !== null && Date.now() - Date.parse(run.finishedAt) < REVERT_OFFER_MS;
  const revertible = !active && !finding && !evaluation;
  if (!active && !finding && (evaluation || (failed === 0 && !recent))) return null;

  const act = async (path: string, body?: unknown) => {
    try {
      await api(path, { method: "POST", body: body ?? {} });
    } catch (e) {
      toast.error(errorMessage(e));
    }
    void qc.invalidateQueries({ queryKey: keys.runs(baseId) });
  };
  const pct = (n: number) => `${total ? (100 * n) / total : 0}%`;
  const label =
    run.status === "paused"
      ? run.pausedReason === "budget"
        ? "Paused: credit cap reached"
        : "Paused"
      : run.status === "running"
        ? evaluation
          ? "Evaluating"
          : finding
            ? "Finding rows…"
            : "Running"
        : run.status === "cancelled"
          ? "Cancelled"
          : finding
            ? "Find finished"
            : "Finished";
  // A schedule's execution says so, with the schedule's name once the list has it.
  const scheduled = run.trigger === "schedule";
  const scheduleName = scheduled ? schedules.data?.find((x) => x.id === run.scheduleId)?.name : undefined;

  return (
    <div
      role="status"
      aria-label="Run progress"
      data-run-status={run.status}
      className="flex flex-wrap items-center gap-3 border-b border-zinc-200 bg-zinc-50 px-3 py-1.5 text-xs dark:border-zinc-800 dark:bg-zinc-950"
    >
      <span className="flex items-center gap-1.5 font-medium text-zinc-800 dark:text-zinc-200">
        {run.status === "running" ? <Spinner className="text-indigo-500" /> : null}
        {scheduled ? (
          <span
            className="rounded-full bg-violet-100 px-2 py-0.5 text-[11px] font-medium text-violet-800 dark:bg-violet-900/60 dark:text-violet-200"
            data-testid="run-scheduled"
          >
            Scheduled{scheduleName ? `: ${scheduleName}` : ""}
          </span>
        ) : null}
        {label}
      </span>
      <div className="flex h-2 w-40 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800" aria-hidden>
        {finding && find ? (
          <div
            className="bg-emerald-500"
            style={{ width: `${Math.min(100, (100 * find.candidates.added) / Math.max(find.count, 1))}%` }}
          />
        ) : (
          <>
            <div className="bg-emerald-500" style={{ width: pct(counts.done) }} />
            <div className="bg-red-500" style={{ width: pct(counts.error) }} />
            <div className="bg-zinc-400" style={{ width: pct(counts.cancelled) }} />
            <div className="bg-zinc-300 dark:bg-zinc-600" style={{ width: pct(skipped) }} />
            <div className="bg-sky-400" style={{ width: pct(notFound) }} />
            <div className="bg-indigo-400" style={{ width: pct(counts.running) }} />
          </>
        )}
      </div>
      {finding && find ? (
        <span className="text-zinc-600 tabular-nums dark:text-zinc-400" data-testid="find-counts">
          {findCounts(find)} of {formatCount(find.count)} wanted
        </span>
      ) : null}
      <span
        className={`text-zinc-600 tabular-nums dark:text-zinc-400 ${finding ? "hidden" : ""}`}
        data-testid="run-counts"
      >
        {formatCount(counts.done)} done · {formatCount(counts.error)} errors ·{" "}
        {formatCount(counts.pending + counts.running)} pending
        {counts.cancelled ? ` · ${formatCount(counts.cancelled)} cancelled` : ""}
        {skipped ? ` · ${formatCount(skipped)} skipped` : ""}
        {notFound ? ` · ${formatCount(notFound)} not found` : ""}
      </span>
      <span className="text-zinc-600 tabular-nums dark:text-zinc-400">
        {plural(run.creditsSpent, "credit")}
        {run.maxCredits !== null ? ` of ${formatCount(run.maxCredits)}` : ""}
      </span>
      {eta ? <span className="text-zinc-600 tabular-nums dark:text-zinc-400">{eta}</span> : null}
      <div className="ml-auto flex items-center gap-1.5">
        {run.status === "running" ? (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => void act(`/api/v1/runs/${run.id}/pause`)}
            deniedReason={runDenied}
          >
            Pause
          </Button>
        ) : null}
        {run.status === "paused" ? (
          <Button
            size="sm"
            variant="ghost"
            deniedReason={runDenied}
            onClick={() => {
              if (run.pausedReason !== "budget") return void act(`/api/v1/runs/${run.id}/resume`);
              const raised = window.prompt(
                "New credit cap for this run (empty for none):",
                String((run.maxCredits ?? 0) * 2),
              );
              if (raised === null) return;
              void act(`/api/v1/runs/${run.id}/resume`, { maxCredits: raised.trim() === "" ? null : Number(raised) });
            }}
          >
            Resume
          </Button>
        ) : null}
        {active ? (
          <Button
            size="sm"
            variant="ghost"
            className="text-red-700 dark:text-red-400"
            deniedReason={runDenied}
            onClick={() => void act(`/api/v1/runs/${run.id}/cancel`)}
          >
            Cancel run
          </Button>
        ) : null}
        {finding && find && !active ? <FindMoreButton find={find} deniedReason={runDenied} /> : null}
        {revertible ? <RevertRunButton baseId={baseId} runId={run.id} deniedReason={rowsDenied} /> : null}
        {!active && !finding && failed > 0 ? (
          <Button
            size="sm"
            variant="secondary"
            deniedReason={runDenied}
            onClick={async () => {
              try {
                const res = await api<{ queued: number }>(`${basePath(baseId)}/run`, {
                  body: { statuses: ["error", "cancelled"] },
                });
                toast.success(`Retrying ${plural(res.queued, "cell")}.`);
              } catch (e) {
                toast.error(errorMessage(e));
              }
              void qc.invalidateQueries({ queryKey: keys.runs(baseId) });
            }}
          >
            <RefreshIcon /> Retry {formatCount(failed)} failed
          </Button>
        ) : null}
        {!active ? (
          <button
            type="button"
            aria-label="Hide the run bar"
            onClick={() => setDismissed(run.id)}
            className="rounded px-1.5 text-base leading-none text-zinc-500 hover:bg-zinc-200 dark:hover:bg-zinc-800"
          >
            ×
          </button>
        ) : null}
      </div>
    </div>
  );
}
