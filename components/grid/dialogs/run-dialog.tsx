"use client";
import { useEffect, useMemo, useState } from "react";
import { errorMessage } from "../../data/api";
import type { RunEstimate } from "../../data/types";
import { Button } from "../../ui/button";
import { Dialog, DialogFooter } from "../../ui/dialog";
import { formatCount, plural } from "../../ui/format";
import { Spinner } from "../../ui/spinner";
import type { GridActions, RunRequest } from "../data/use-grid-actions";

/**
 * Shows what a run would cost (the estimate API) before queuing it (the run API): cells, credits,
 * unchanged cells it can skip, and an optional credit cap for the run.
 */
export function RunDialog({
  title,
  request,
  actions,
  onClose,
}: {
  title: string;
  request: RunRequest;
  actions: GridActions;
  onClose: () => void;
}) {
  const [onlyStale, setOnlyStale] = useState(false);
  const [cap, setCap] = useState("");
  const [estimate, setEstimate] = useState<RunEstimate | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const req = useMemo(() => ({ ...request, ...(onlyStale ? { onlyStale: true } : {}) }), [request, onlyStale]);

  useEffect(() => {
    actions.estimate(req).then(setEstimate, (e) => setError(errorMessage(e)));
  }, [actions, req]);

  const maxCredits = creditCap(cap);
  const short = estimate && estimate.balance !== null && estimate.credits > estimate.balance;
  return (
    <Dialog open onClose={onClose} title={title}>
      <div className="space-y-3 px-5 py-4 text-sm" aria-live="polite">
        {error ? (
          <p role="alert" className="text-red-700 dark:text-red-400">
            {error}
          </p>
        ) : !estimate ? (
          <p className="flex items-center gap-2 text-zinc-600 dark:text-zinc-400">
            <Spinner /> Estimating…
          </p>
        ) : (
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1.5">
            <dt className="text-zinc-600 dark:text-zinc-400">Cells to run</dt>
            <dd className="font-medium tabular-nums">{formatCount(estimate.cells)}</dd>
            <dt className="text-zinc-600 dark:text-zinc-400">Cost</dt>
            <dd className="font-medium tabular-nums">{plural(estimate.credits, "credit")}</dd>
            <dt className="text-zinc-600 dark:text-zinc-400">Unchanged</dt>
            <dd className="tabular-nums">
              {onlyStale
                ? `${formatCount(estimate.skipped)} skipped`
                : `${formatCount(estimate.unchanged)} would be regenerated`}
            </dd>
            <dt className="text-zinc-600 dark:text-zinc-400">Balance</dt>
            <dd className={`font-medium tabular-nums ${short ? "text-red-700 dark:text-red-400" : ""}`}>
              {estimate.balance === null ? "Unlimited" : plural(estimate.balance, "credit")}
            </dd>
          </dl>
        )}
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={onlyStale} onChange={(e) => setOnlyStale(e.target.checked)} />
          Only cells whose inputs or settings changed
        </label>
        <CreditCapField value={cap} onChange={setCap} />
      </div>
      <DialogFooter>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="primary"
          disabled={busy || !estimate || estimate.cells === 0}
          onClick={async () => {
            setBusy(true);
            await actions.run({ ...req, ...(maxCredits ? { maxCredits } : {}) });
            onClose();
          }}
        >
          Run {estimate ? plural(estimate.cells, "cell") : ""}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}

/** Before a paste or import queues more than 100 AI cells: their number and an optional cap. */
export function ConfirmRunDialog({
  cells,
  onAnswer,
}: {
  cells: number;
  onAnswer: (a: { maxCredits?: number } | null) => void;
}) {
  const [cap, setCap] = useState("");
  const maxCredits = creditCap(cap);
  return (
    <Dialog
      open
      onClose={() => onAnswer(null)}
      title={`Run ${plural(cells, "AI cell")}?`}
      description="The new rows queue this many AI cells, each charged when it is generated."
    >
      <div className="px-5 py-4 text-sm">
        <CreditCapField value={cap} onChange={setCap} />
      </div>
      <DialogFooter>
        <Button onClick={() => onAnswer(null)}>Cancel</Button>
        <Button variant="primary" onClick={() => onAnswer(maxCredits ? { maxCredits } : {})}>
          Add and run
        </Button>
      </DialogFooter>
    </Dialog>
  );
}

/** A whole number of credits above zero, or no cap. */
const creditCap = (text: string) => (/^\d+$/.test(text.trim()) && Number(text) > 0 ? Number(text) : undefined);

function CreditCapField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <label className="flex items-center gap-2">
      Credit cap (optional)
      <input
        type="number"
        min={1}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="none"
        className="h-7 w-24 rounded-md border border-zinc-300 bg-white px-1.5 text-right text-xs tabular-nums dark:border-zinc-700 dark:bg-zinc-950"
      />
    </label>
  );
}
