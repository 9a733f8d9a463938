"use client";
import { useState } from "react";
import type { ColumnView } from "../../data/types";
import { Button } from "../../ui/button";
import { Dialog, DialogFooter } from "../../ui/dialog";
import { CHANGED_PRESETS, dateSince, presetSince, type ChangedFilter, type ChangedPreset } from "./changed-since";

const FIELD =
  "mt-1 block h-9 w-full rounded-md border border-zinc-300 bg-white px-2.5 text-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 dark:border-zinc-700 dark:bg-zinc-950";

const ANY = "";

/** Picks the "Changed since…" quick filter: a generated column (or any of them) and a time. */
export function ChangedSinceDialog({
  generated,
  initial,
  onSave,
  onClose,
}: {
  /** The base's generated columns (AI, HTTP, waterfall): only their answers are tracked as changes. */
  generated: ColumnView[];
  initial: ChangedFilter | null;
  onSave: (changed: ChangedFilter) => void;
  onClose: () => void;
}) {
  const [column, setColumn] = useState(initial?.columns.length === 1 ? initial.columns[0] : ANY);
  const [preset, setPreset] = useState<ChangedPreset | "custom">(initial ? "custom" : "24h");
  const [day, setDay] = useState(() => (initial ? localDay(initial.since) : ""));
  const since = preset === "custom" ? dateSince(day) : presetSince(preset, Date.now());

  return (
    <Dialog
      open
      onClose={onClose}
      title="Changed since…"
      description="Rows whose generated values really changed (a new answer that differs from the old one) since a time."
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!since) return;
          onSave({ since, columns: column === ANY ? generated.map((c) => c.id) : [column] });
        }}
      >
        <div className="space-y-4 px-5 py-4">
          <label className="block text-sm font-medium">
            Column
            <select value={column} onChange={(e) => setColumn(e.target.value)} className={FIELD}>
              <option value={ANY}>Any AI column</option>
              {generated.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <fieldset>
            <legend className="text-sm font-medium">Changed in</legend>
            <div className="mt-1.5 flex flex-wrap gap-x-4 gap-y-2 text-sm">
              {[...CHANGED_PRESETS, { id: "custom" as const, label: "Since a date" }].map((p) => (
                <label key={p.id} className="flex items-center gap-1.5">
                  <input
                    type="radio"
                    name="changed-preset"
                    value={p.id}
                    checked={preset === p.id}
                    onChange={() => setPreset(p.id)}
                    className="accent-indigo-600"
                  />
                  {p.label}
                </label>
              ))}
            </div>
          </fieldset>
          {preset === "custom" ? (
            <label className="block text-sm font-medium">
              Date
              <input
                type="date"
                value={day}
                max={localDay(new Date().toISOString())}
                onChange={(e) => setDay(e.target.value)}
                className={FIELD}
                required
              />
            </label>
          ) : null}
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={!since || generated.length === 0}>
            Show changed rows
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}

/** An instant as the browser's local day, YYYY-MM-DD (what a date input holds). */
function localDay(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
