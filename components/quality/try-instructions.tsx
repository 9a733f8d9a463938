"use client";
import { useId, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { api, columnPath, errorMessage } from "../data/api";
import { keys } from "../data/queries";
import type { ColumnView, EvaluationEstimate, EvaluationRequest } from "../data/types";
import { MAX_EVALUATION_ROWS } from "@/lib/domain/evaluations/settings.ts";
import { Button } from "../ui/button";
import { plural } from "../ui/format";
import { Spinner } from "../ui/spinner";

/** The settings being tried, kept so "Back" from an evaluation returns to them. */
export interface Draft {
  instructions: string;
  model: string;
  limit: string;
}

const INPUT =
  "mt-1 block w-full rounded-md border border-zinc-300 bg-white px-2.5 text-sm font-normal text-zinc-900 outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100";

export function draftOf(column: ColumnView): Draft {
  const model = column.columnOptions.model;
  return { instructions: column.instructions, model: typeof model === "string" ? model : "", limit: "" };
}

/** A blank model or row limit means the column's model and the server's default sample. */
export function requestOf(draft: Draft): EvaluationRequest {
  const limit = Number(draft.limit);
  return {
    instructions: draft.instructions,
    ...(draft.model.trim() ? { model: draft.model.trim() } : {}),
    ...(draft.limit.trim() && Number.isInteger(limit) && limit > 0
      ? { limit: Math.min(limit, MAX_EVALUATION_ROWS) }
      : {}),
  };
}

/**
 * Other instructions or another model, tried on the rows reviewers verified. It costs credits,
 * so the estimate comes first and the evaluation starts only on a second click.
 */
export function TryInstructions({
  baseId,
  column,
  initial,
  onCancel,
  onStarted,
}: {
  baseId: string;
  column: ColumnView;
  initial?: Draft;
  onCancel: () => void;
  onStarted: (evaluationId: string, draft: Draft) => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => initial ?? draftOf(column));
  const [estimate, setEstimate] = useState<EvaluationEstimate | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const qc = useQueryClient();
  const id = useId();
  // An estimate is for the settings it was made with: any edit asks for a new one.
  const set = (k: keyof Draft, v: string) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setEstimate(null);
    setError(null);
  };

  async function call<T>(path: string, request: EvaluationRequest): Promise<T | null> {
    setBusy(true);
    setError(null);
    try {
      return await api<T>(`${columnPath(baseId, column.id)}/${path}`, { body: request });
    } catch (e) {
      setError(errorMessage(e));
      return null;
    } finally {
      setBusy(false);
    }
  }

  async function start() {
    const started = await call<{ id: string }>("evaluate", requestOf(draft));
    if (!started) return;
    void qc.invalidateQueries({ queryKey: keys.evaluations(baseId, column.id) });
    onStarted(started.id, draft);
  }

  return (
    <form
      aria-label="Try new instructions"
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (estimate) return void start();
        void call<EvaluationEstimate>("evaluate/estimate", requestOf(draft)).then((r) => r && setEstimate(r));
      }}
    >
      <h3 className="font-semibold">Try new instructions</h3>
      <label className="block text-xs font-medium text-zinc-700 dark:text-zinc-300">
        Instructions
        <textarea
          className={`${INPUT} py-1.5`}
          rows={5}
          value={draft.instructions}
          onChange={(e) => set("instructions", e.target.value)}
          maxLength={20_000}
          autoFocus
        />
      </label>
      <div className="grid grid-cols-[1fr_7rem] gap-3">
        <label className="block text-xs font-medium text-zinc-700 dark:text-zinc-300">
          Model
          <input
            className={`${INPUT} h-8 font-mono`}
            value={draft.model}
            onChange={(e) => set("model", e.target.value)}
            placeholder="the column's model"
            spellCheck={false}
          />
        </label>
        <label className="block text-xs font-medium text-zinc-700 dark:text-zinc-300">
          Rows at most
          <input
            className={`${INPUT} h-8 text-right tabular-nums`}
            type="number"
            min={1}
            max={MAX_EVALUATION_ROWS}
            value={draft.limit}
            onChange={(e) => set("limit", e.target.value)}
            placeholder="50"
            aria-describedby={`${id}-limit`}
          />
        </label>
      </div>
      <p id={`${id}-limit`} className="text-[11px] text-zinc-500 dark:text-zinc-400">
        Only rows whose value a reviewer accepted or corrected are evaluated; up to 50 unless you say otherwise.
      </p>
      <div aria-live="polite">
        {error ? (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800 dark:bg-red-950 dark:text-red-200">
            {error}
          </p>
        ) : estimate ? (
          <p
            className="rounded-md bg-indigo-50 px-3 py-2 text-indigo-950 dark:bg-indigo-950 dark:text-indigo-100"
            data-testid="evaluation-estimate"
          >
            {plural(estimate.rows, "row")}, about {plural(estimate.estimatedCredits, "credit")}
          </p>
        ) : null}
      </div>
      <div className="flex justify-end gap-2">
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        {estimate ? (
          <Button size="sm" variant="primary" type="submit" disabled={busy || estimate.rows === 0}>
            {busy ? <Spinner /> : null} Start evaluation
          </Button>
        ) : (
          <Button size="sm" variant="primary" type="submit" disabled={busy || !draft.instructions.trim()}>
            {busy ? <Spinner /> : null} Estimate cost
          </Button>
        )}
      </div>
    </form>
  );
}
