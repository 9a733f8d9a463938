"use client";
import { isGenerated } from "@/lib/domain/fill/kinds.ts";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { api, errorMessage } from "../data/api";
import type { ColumnView } from "../data/types";
import { Button } from "../ui/button";
import { useToast } from "../ui/toast";
import { draftToBody, emptyDraft, type ScheduleDraft, type ScheduleView } from "./schedule-form";
import { schedulePath, schedulesKey } from "./use-schedules";

const FIELD =
  "mt-1 block h-9 w-full rounded-md border border-zinc-300 bg-white px-2.5 text-sm font-normal outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 dark:border-zinc-700 dark:bg-zinc-950";
const LABEL = "block text-sm font-medium";

/** Makes a refresh schedule: a cron in a time zone or an interval, the columns, the rows and a credit cap. */
export function ScheduleCreateForm({
  baseId,
  columns,
  timeZone,
  onDone,
}: {
  baseId: string;
  columns: ColumnView[];
  timeZone: string;
  onDone: () => void;
}) {
  const qc = useQueryClient();
  const toast = useToast();
  const [d, setD] = useState<ScheduleDraft>(() => emptyDraft(timeZone));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<ScheduleDraft>) => setD((old) => ({ ...old, ...patch }));
  const generated = columns.filter(isGenerated);

  async function save() {
    const parsed = draftToBody(d);
    if ("error" in parsed) return setError(parsed.error);
    setSaving(true);
    setError(null);
    try {
      const made = await api<ScheduleView>(schedulePath(baseId), { body: parsed.body });
      toast.success(`Schedule “${made.name}” made.`);
      await qc.invalidateQueries({ queryKey: schedulesKey(baseId) });
      onDone();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      aria-label="New schedule"
      className="space-y-3 rounded-lg border border-indigo-200 bg-indigo-50/40 p-3 dark:border-indigo-900 dark:bg-indigo-950/20"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label className={LABEL}>
        Name
        <input value={d.name} onChange={(e) => set({ name: e.target.value })} className={FIELD} maxLength={200} />
      </label>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">When</legend>
        <div className="flex gap-4 text-sm">
          {(["every", "cron"] as const).map((mode) => (
            <label key={mode} className="flex items-center gap-1.5">
              <input
                type="radio"
                name="schedule-mode"
                checked={d.mode === mode}
                onChange={() => set({ mode })}
                className="accent-indigo-600"
              />
              {mode === "every" ? "Every N hours or days" : "Cron expression"}
            </label>
          ))}
        </div>
        {d.mode === "every" ? (
          <div className="grid grid-cols-2 gap-2">
            <label className={LABEL}>
              Every
              <input
                type="number"
                min={1}
                value={d.everyCount}
                onChange={(e) => set({ everyCount: e.target.value })}
                className={FIELD}
              />
            </label>
            <label className={LABEL}>
              Unit
              <select
                value={d.everyUnit}
                onChange={(e) => set({ everyUnit: e.target.value as ScheduleDraft["everyUnit"] })}
                className={FIELD}
              >
                <option value="hours">hours</option>
                <option value="days">days</option>
              </select>
            </label>
          </div>
        ) : (
          <div className="grid grid-cols-2 gap-2">
            <label className={LABEL}>
              Cron
              <input
                value={d.cron}
                onChange={(e) => set({ cron: e.target.value })}
                className={`${FIELD} font-mono`}
                placeholder="0 6 * * 1"
              />
            </label>
            <label className={LABEL}>
              Time zone
              <input value={d.timezone} onChange={(e) => set({ timezone: e.target.value })} className={FIELD} />
            </label>
          </div>
        )}
      </fieldset>
      <div>
        <label className={LABEL}>
          Columns
          <select
            multiple
            value={d.columnIds}
            onChange={(e) => set({ columnIds: [...e.target.selectedOptions].map((o) => o.value) })}
            className={`${FIELD} h-auto py-1`}
            size={Math.min(4, Math.max(2, generated.length))}
            aria-describedby="schedule-columns-hint"
          >
            {generated.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <p id="schedule-columns-hint" className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
          None selected: every AI column.
        </p>
      </div>
      <div className="grid grid-cols-2 gap-2">
        <label className={LABEL}>
          Rows
          <select
            value={d.rows}
            onChange={(e) => set({ rows: e.target.value as ScheduleDraft["rows"] })}
            className={FIELD}
          >
            <option value="all">All rows</option>
            <option value="olderThanDays">Cells older than N days</option>
            <option value="belowConfidence">Cells below a confidence</option>
          </select>
        </label>
        {d.rows === "olderThanDays" ? (
          <label className={LABEL}>
            Older than (days)
            <input
              type="number"
              min={1}
              value={d.olderThanDays}
              onChange={(e) => set({ olderThanDays: e.target.value })}
              className={FIELD}
            />
          </label>
        ) : d.rows === "belowConfidence" ? (
          <label className={LABEL}>
            Below confidence (%)
            <input
              type="number"
              min={1}
              max={100}
              value={d.belowConfidence}
              onChange={(e) => set({ belowConfidence: e.target.value })}
              className={FIELD}
            />
          </label>
        ) : null}
      </div>
      <label className={LABEL}>
        Changes announced
        <select
          value={d.materiality}
          onChange={(e) => set({ materiality: e.target.value as ScheduleDraft["materiality"] })}
          className={FIELD}
        >
          <option value="type">Any change of value</option>
          <option value="model">Only material text changes, judged by the model (1 credit each)</option>
        </select>
      </label>
      <div className="grid grid-cols-2 items-end gap-2">
        <label className={LABEL}>
          Max credits per run
          <input
            type="number"
            min={1}
            value={d.maxCredits}
            placeholder="Default"
            onChange={(e) => set({ maxCredits: e.target.value })}
            className={FIELD}
          />
        </label>
        <label className="flex h-9 items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            checked={d.enabled}
            onChange={(e) => set({ enabled: e.target.checked })}
            className="size-4 accent-indigo-600"
          />
          Enabled
        </label>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button size="sm" onClick={onDone}>
          Cancel
        </Button>
        <Button size="sm" type="submit" variant="primary" disabled={saving}>
          {saving ? "Saving…" : "Create schedule"}
        </Button>
      </div>
    </form>
  );
}
