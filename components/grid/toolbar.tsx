"use client";
import { useEffect, useState } from "react";
import { usePermissions } from "../auth/use-permissions";
import { Button } from "../ui/button";
import { FilterIcon, PlusIcon, RefreshIcon, SparkleIcon, TrashIcon } from "../ui/icons";
import { formatCount, plural } from "../ui/format";
import { Spinner } from "../ui/spinner";
import type { LiveStatus } from "./data/use-live-updates";
import { ExportButton } from "./dialogs/export-dialog";
import { FindRowsButton } from "../finds/find-dialog";
import { SchedulesButton } from "../schedules/schedules-dialog";

export interface ToolbarProps {
  baseId: string;
  onAddRow: () => void;
  onAddColumn: () => void;
  onImport: () => void;
  selectedRows: number;
  onDeleteRows: () => void;
  rerun: { enabled: boolean; hint?: string; onClick: () => void };
  runAll: { enabled: boolean; onClick: () => void };
  reviewOnly: boolean;
  /** Rows with a cell to review, as the server counts them (null until known). */
  reviewCount: number | null;
  onToggleReview: () => void;
  threshold: number;
  onThreshold: (value: number) => void;
  rows: number;
  /** The base's row count when a filter or search narrows the rows ("312 of 10,000 rows"). */
  of: number | null;
  loading: { loaded: number; expected: number } | null;
  live: LiveStatus;
}

export function Toolbar(p: ToolbarProps) {
  const perms = usePermissions();
  const rowsDenied = perms.reason("rows:write", "add rows");
  const runDenied = perms.reason("runs:write");
  const rerunWhy = runDenied ?? p.rerun.hint;
  return (
    <div
      role="toolbar"
      aria-label="Table actions"
      className="flex flex-wrap items-center gap-2 border-b border-zinc-200 bg-white px-3 py-2 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <Button size="sm" variant="primary" onClick={p.onAddRow} deniedReason={rowsDenied}>
        <PlusIcon /> Row
      </Button>
      <Button size="sm" onClick={p.onAddColumn} deniedReason={perms.reason("schema:write", "add columns")}>
        <PlusIcon /> Column
      </Button>
      <Button
        size="sm"
        onClick={p.onImport}
        title="Import a CSV, XLSX or JSON Lines file"
        deniedReason={perms.reason("rows:write", "import rows")}
      >
        Import
      </Button>
      <span className="mx-1 hidden h-5 w-px bg-zinc-200 sm:block dark:bg-zinc-700" aria-hidden />
      <Button
        size="sm"
        variant="ghost"
        onClick={p.runAll.onClick}
        disabled={!p.runAll.enabled}
        title="Estimate and run every AI cell"
        deniedReason={runDenied}
      >
        <SparkleIcon /> Run all
      </Button>
      <Button
        size="sm"
        variant="ghost"
        onClick={p.rerun.onClick}
        disabled={!p.rerun.enabled}
        title={p.rerun.hint}
        deniedReason={runDenied}
      >
        <RefreshIcon /> Re-run selection
        {rerunWhy && (!p.rerun.enabled || runDenied) ? <span className="sr-only">({rerunWhy})</span> : null}
      </Button>
      <FindRowsButton baseId={p.baseId} />
      <ExportButton baseId={p.baseId} />
      <SchedulesButton baseId={p.baseId} />
      {p.selectedRows > 0 ? (
        <Button
          size="sm"
          variant="ghost"
          onClick={p.onDeleteRows}
          className="text-red-700 dark:text-red-400"
          deniedReason={perms.reason("rows:write", "delete rows")}
        >
          <TrashIcon /> Delete {plural(p.selectedRows, "row")}
        </Button>
      ) : null}
      <div className="ml-auto flex flex-wrap items-center gap-2">
        {rowsDenied ? (
          <span
            className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"
            title={perms.reason("rows:write")}
          >
            Read-only
          </span>
        ) : null}
        <Button
          size="sm"
          variant={p.reviewOnly ? "primary" : "secondary"}
          aria-pressed={p.reviewOnly}
          onClick={p.onToggleReview}
          title="Review the AI cells that failed, fell under their column's review threshold, or went out of date"
        >
          <FilterIcon /> Needs review
          <span
            className={`rounded-full px-1.5 text-xs tabular-nums ${p.reviewOnly ? "bg-white/20" : "bg-zinc-100 dark:bg-zinc-800"}`}
          >
            {p.reviewCount === null ? "…" : formatCount(p.reviewCount)}
          </span>
        </Button>
        <ThresholdInput
          value={p.threshold}
          onChange={p.onThreshold}
          denied={perms.reason("schema:write", "change the base's settings")}
        />
        <span className="hidden h-5 w-px bg-zinc-200 sm:block dark:bg-zinc-700" aria-hidden />
        <p
          className="flex items-center gap-1.5 text-xs text-zinc-600 tabular-nums dark:text-zinc-400"
          aria-live="polite"
        >
          {p.loading ? (
            <>
              <Spinner className="text-indigo-500" />
              Loading {formatCount(p.loading.loaded)} of {formatCount(p.loading.expected)}
            </>
          ) : p.of !== null ? (
            `${formatCount(p.rows)} of ${plural(p.of, "row")}`
          ) : (
            plural(p.rows, "row")
          )}
        </p>
        <LiveBadge status={p.live} />
      </div>
    </div>
  );
}

function ThresholdInput({
  value,
  onChange,
  denied,
}: {
  value: number;
  onChange: (v: number) => void;
  denied?: string;
}) {
  const [text, setText] = useState(String(Math.round(value * 100)));
  useEffect(() => setText(String(Math.round(value * 100))), [value]);
  const commit = () => {
    const n = Number(text);
    if (!Number.isFinite(n) || n < 0 || n > 100) return setText(String(Math.round(value * 100)));
    if (Math.round(n) !== Math.round(value * 100)) onChange(Math.round(n) / 100);
  };
  return (
    <label
      className="flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400"
      title={denied ?? "AI cells with a lower confidence are tinted and count as needing review"}
    >
      Low confidence below
      <input
        type="number"
        min={0}
        max={100}
        step={5}
        disabled={Boolean(denied)}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === "Enter" && commit()}
        className="h-7 w-14 rounded-md border border-zinc-300 bg-white px-1.5 text-right text-xs text-zinc-900 tabular-nums outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 disabled:cursor-not-allowed disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100"
      />
      %
    </label>
  );
}

const LIVE: Record<LiveStatus, { label: string; dot: string }> = {
  connecting: { label: "Connecting", dot: "bg-zinc-400" },
  live: { label: "Live", dot: "bg-emerald-500" },
  reconnecting: { label: "Reconnecting", dot: "bg-amber-500 animate-pulse" },
  offline: { label: "Offline", dot: "bg-red-500" },
};

function LiveBadge({ status }: { status: LiveStatus }) {
  const s = LIVE[status];
  return (
    <span
      className="flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400"
      title="Changes appear as they happen"
      data-live={status}
    >
      <span className={`size-2 rounded-full ${s.dot}`} aria-hidden />
      {s.label}
    </span>
  );
}
