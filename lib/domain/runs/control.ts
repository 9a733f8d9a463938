import type { Work } from "../../db/work.ts";
import { appError } from "../../errors.ts";
import { loadBase } from "../base-context.ts";
import { cancelRunCells, pendingCellsOfRun } from "../cells/index.ts";
import { cancelItemsOfRun } from "../evaluations/index.ts";
import { getRun, lockRun, setMaxCredits, transitionRun } from "./record.ts";
import type { RunView } from "./states.ts";
import { assertKeyRoom } from "../../credits/key-cap.ts";

// Control of a run: cancel, pause and resume. Each locks the run first, the order every outcome
// of the run follows too, so a control change and a stored answer never interleave.

const finished = (status: string) => status === "done" || status === "cancelled";

/**
 * Cancels the run: its pending cells become cancelled, its running cells are aborted where they
 * run (and not charged when their answer still arrives). Cancelling a cancelled run is a no-op.
 */
export async function cancelRun(w: Work, workspaceId: string, runId: string): Promise<RunView> {
  const run = await lockRun(w.tx, runId, workspaceId);
  if (run.status === "done") throw appError("run_finished", "The run has finished: there is nothing left to cancel.");
  if (run.status !== "cancelled") {
    await transitionRun(w, run, "cancel");
    const baseCtx = await loadBase(w.tx, workspaceId, run.baseId);
    await cancelRunCells(w, baseCtx, runId);
    if ((await cancelItemsOfRun(w.tx, runId)) > 0) w.emit({ type: "evaluation.cancelled", runId });
  }
  return getRun(w.tx, workspaceId, runId);
}

/** Stops claiming the run's pending cells; its running cells finish. Pausing a paused run is a no-op. */
export async function pauseRun(w: Work, workspaceId: string, runId: string): Promise<RunView> {
  const run = await lockRun(w.tx, runId, workspaceId);
  if (finished(run.status) || (await getRun(w.tx, workspaceId, runId)).status === "done") {
    throw appError("run_finished", "The run has finished: there is nothing left to pause.");
  }
  if (run.status === "running") await transitionRun(w, run, "pause");
  return getRun(w.tx, workspaceId, runId);
}

/**
 * Continues a paused run, optionally with a new credit cap (null lifts it). A run paused by its
 * budget resumes only with a cap that leaves room for another cell.
 */
export async function resumeRun(
  w: Work,
  workspaceId: string,
  runId: string,
  opts: { maxCredits?: number | null },
): Promise<RunView> {
  const run = await lockRun(w.tx, runId, workspaceId);
  if (finished(run.status)) throw appError("run_finished", "The run has finished: start a new run instead.");
  const cap = opts.maxCredits === undefined ? run.maxCredits : opts.maxCredits;
  if (cap !== null && run.cellCost > 0 && cap - run.creditsSpent < run.cellCost) {
    throw appError(
      "run_budget_reached",
      `The run has spent ${run.creditsSpent} of its ${cap} credits; resume it with a higher maxCredits.`,
      {
        creditsSpent: run.creditsSpent,
        maxCredits: cap,
      },
    );
  }
  // Paused by its key's daily cap: it resumes once the day turns over or the cap is raised.
  if (run.pausedReason === "key_cap") await assertKeyRoom(w.tx, run.keyId, run.cellCost);
  if (run.status === "paused") {
    await transitionRun(w, run, "resume", { maxCredits: cap });
    // The run's cells waited without jobs while it was paused: announce them again.
    const pending = await pendingCellsOfRun(w.tx, runId);
    if (pending.length > 0) await w.publish({ type: "cells.queued", refs: pending });
    w.emit({ type: "work.available" });
    w.emit({ type: "finds.available" });
  } else if (opts.maxCredits !== undefined) {
    await setMaxCredits(w, run, cap);
  }
  return getRun(w.tx, workspaceId, runId);
}
