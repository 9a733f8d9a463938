import type { z } from "zod";
import * as schedules from "../http/schemas/schedules.ts";
import type { McpTool } from "./tool-types.ts";

// The MCP tools of schedules (docs/monitors.md): list a base's schedules, make one, run one now.
// Each calls its REST endpoint, so its scope (runs:write to make or trigger), credits and errors
// are the API's.

type ScheduleJson = z.infer<typeof schedules.scheduleSchema>;

function line(s: ScheduleJson): string {
  const when = s.cron ? `cron "${s.cron}" (${s.timezone})` : `every ${s.every} s`;
  const next = s.enabled ? `next ${s.nextRunAt}` : "disabled";
  const last = s.lastStatus ? `; last ${s.lastStatus}${s.lastRunId ? ` (run ${s.lastRunId})` : ""}` : "";
  return `${s.id} "${s.name}": ${s.behavior}, ${when}, ${next}${last}`;
}

export const SCHEDULE_TOOLS: readonly McpTool[] = [
  {
    name: "list_schedules",
    title: "List a base's schedules",
    endpoints: [schedules.listSchedules],
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: (r) =>
      r.schedules.length === 0 ? "No schedules." : r.schedules.map((s: ScheduleJson) => line(s)).join("\n"),
  },
  {
    name: "create_schedule",
    title: "Schedule a refresh",
    description:
      'Refreshes a base\'s AI cells (or finds new rows, behavior "find") on a cron in a time zone or every 1 hour to 30 days, each execution a run charged up to maxCredits. rows picks the cells: {"all": true}, {"filter": …}, {"olderThanDays": n} or {"belowConfidence": x}. materiality "model" has the model judge whether each changed text value matters (charged). Confirm the cadence and the budget with the user first: it spends credits on its own.',
    endpoints: [schedules.createSchedule],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    summary: (r) => `Scheduled ${line(r)}; next ticks ${r.nextRunTimes.join(", ")}.`,
  },
  {
    name: "trigger_schedule",
    title: "Run a schedule now",
    description:
      "Executes a schedule now as a run (its next tick unchanged), charged to this key; refused (schedule_busy) while its previous run is open. Follow the run with get_run.",
    endpoints: [schedules.triggerSchedule],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    summary: (r) =>
      r.run
        ? `Run ${r.run.id} started: ${r.queued} cells queued for schedule ${r.schedule.id}.`
        : `Nothing to run for schedule ${r.schedule.id}: no cell matched.`,
  },
];
