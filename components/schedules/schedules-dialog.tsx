"use client";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { usePermissions } from "../auth/use-permissions";
import { api, errorMessage } from "../data/api";
import { keys, useStructure } from "../data/queries";
import { Button } from "../ui/button";
import { Dialog, DialogFooter } from "../ui/dialog";
import { ClockIcon, PlusIcon } from "../ui/icons";
import { plural } from "../ui/format";
import { useToast } from "../ui/toast";
import { ScheduleCreateForm } from "./schedule-create-form";
import { describeCadence, describeRows, formatRunTime, viewerTimeZone, type ScheduleView } from "./schedule-form";
import { schedulePath, schedulesKey, useSchedules } from "./use-schedules";

/** The toolbar's "Schedules" button and the dialog it opens. */
export function SchedulesButton({ baseId }: { baseId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="ghost" onClick={() => setOpen(true)} title="Refresh cells on a schedule">
        <ClockIcon /> Schedules
      </Button>
      {open ? <SchedulesDialog baseId={baseId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** A base's schedules: when each runs next (in the viewer's time zone), and making, pausing, running and deleting them. */
function SchedulesDialog({ baseId, onClose }: { baseId: string; onClose: () => void }) {
  const schedules = useSchedules(baseId);
  const columns = useStructure(baseId).data?.sheetColumns ?? [];
  const denied = usePermissions().reason("runs:write", "manage schedules");
  const [creating, setCreating] = useState(false);
  const timeZone = viewerTimeZone();
  const list = schedules.data ?? [];
  return (
    <Dialog
      open
      onClose={onClose}
      title="Schedules"
      description={`Refresh this base's generated cells on a schedule. Times are shown in ${timeZone}.`}
      className="w-[min(44rem,calc(100vw-2rem))]"
    >
      <div className="min-h-0 flex-1 space-y-4 overflow-y-auto px-5 py-4">
        {creating ? (
          <ScheduleCreateForm baseId={baseId} columns={columns} timeZone={timeZone} onDone={() => setCreating(false)} />
        ) : null}
        {schedules.isPending ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading schedules…</p>
        ) : schedules.isError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {errorMessage(schedules.error)}
          </p>
        ) : list.length === 0 && !creating ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No schedules yet.</p>
        ) : (
          <ul aria-label="Schedules" className="space-y-3">
            {list.map((s) => (
              <ScheduleItem
                key={s.id}
                baseId={baseId}
                schedule={s}
                timeZone={timeZone}
                columnName={(id) => columns.find((c) => c.id === id)?.name ?? id}
                denied={denied}
              />
            ))}
          </ul>
        )}
      </div>
      <DialogFooter>
        {creating ? null : (
          <Button variant="primary" onClick={() => setCreating(true)} deniedReason={denied}>
            <PlusIcon /> New schedule
          </Button>
        )}
        <Button onClick={onClose}>Close</Button>
      </DialogFooter>
    </Dialog>
  );
}

function ScheduleItem({
  baseId,
  schedule: s,
  timeZone,
  columnName,
  denied,
}: {
  baseId: string;
  schedule: ScheduleView;
  timeZone: string;
  columnName: (id: string) => string;
  denied: string | undefined;
}) {
  const qc = useQueryClient();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const act = async (what: () => Promise<string | null>) => {
    setBusy(true);
    try {
      const message = await what();
      if (message) toast.success(message);
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(false);
      void qc.invalidateQueries({ queryKey: schedulesKey(baseId) });
    }
  };
  const path = schedulePath(baseId, s.id);
  const columnsText = s.columnIds ? s.columnIds.map(columnName).join(", ") : "every AI column";
  return (
    <li className="rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-700" data-testid="schedule">
      <div className="flex flex-wrap items-baseline gap-x-2">
        <h3 className="font-semibold">{s.name}</h3>
        <span
          className={`rounded-full px-2 py-0.5 text-[11px] font-medium ${s.enabled ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200" : "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"}`}
        >
          {s.enabled ? "On" : "Off"}
        </span>
        <span className="text-zinc-600 dark:text-zinc-400">{describeCadence(s)}</span>
      </div>
      <p className="mt-1 text-zinc-700 dark:text-zinc-300">
        Refreshes {columnsText}, {describeRows(s.rows)}
        {s.maxCredits !== null ? `, at most ${plural(s.maxCredits, "credit")} a run` : ""}
        {s.materiality === "model" ? "; the model judges which text changes matter" : ""}.
      </p>
      {s.enabled && s.nextRunTimes.length ? (
        <div className="mt-1.5 text-xs text-zinc-600 dark:text-zinc-400">
          Next runs:{" "}
          <ol aria-label={`Next runs of ${s.name}`} className="inline">
            {s.nextRunTimes.map((t, i) => (
              <li key={t} className="inline">
                {i > 0 ? " · " : ""}
                <time dateTime={t} data-testid="next-run">
                  {formatRunTime(t, timeZone)}
                </time>
              </li>
            ))}
          </ol>
        </div>
      ) : (
        <p className="mt-1.5 text-xs text-zinc-600 dark:text-zinc-400">Paused: it does not run until turned on.</p>
      )}
      {s.lastRunAt ? (
        <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
          Last ran {formatRunTime(s.lastRunAt, timeZone)}
          {s.lastStatus ? ` (${s.lastStatus === "error" ? `error: ${s.lastError ?? "unknown"}` : s.lastStatus})` : ""}
        </p>
      ) : null}
      <div className="mt-2 flex flex-wrap justify-end gap-1.5">
        <Button
          size="sm"
          variant="ghost"
          disabled={busy}
          deniedReason={denied}
          onClick={() =>
            void act(async () => {
              await api(path, { method: "PATCH", body: { enabled: !s.enabled } });
              return s.enabled ? `“${s.name}” is off.` : `“${s.name}” is on.`;
            })
          }
        >
          {s.enabled ? "Turn off" : "Turn on"}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          disabled={busy}
          deniedReason={denied}
          onClick={() =>
            void act(async () => {
              const res = await api<{ outcome: string; queued: number }>(`${path}/trigger`, { method: "POST" });
              void qc.invalidateQueries({ queryKey: keys.runs(baseId) });
              return res.outcome === "empty"
                ? "Nothing to refresh right now."
                : `Queued ${plural(res.queued, "cell")}.`;
            })
          }
        >
          Run now
        </Button>
        {confirmDelete ? (
          <Button
            size="sm"
            variant="danger"
            disabled={busy}
            onClick={() =>
              void act(async () => {
                await api(path, { method: "DELETE" });
                return `Deleted “${s.name}”.`;
              })
            }
          >
            Delete “{s.name}”?
          </Button>
        ) : (
          <Button
            size="sm"
            variant="ghost"
            className="text-red-700 dark:text-red-400"
            deniedReason={denied}
            onClick={() => setConfirmDelete(true)}
          >
            Delete
          </Button>
        )}
      </div>
    </li>
  );
}
