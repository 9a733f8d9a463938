import { z } from "zod";
import { defineEndpoint, pathId } from "../endpoint.ts";
import { baseIdParam, baseParams, isoDate, nullableIsoDate } from "./common.ts";
import {
  createScheduleInputSchema,
  createScheduleSchema,
  rowsSelectionSchema,
  SCHEDULE_BEHAVIORS,
  SCHEDULE_FIND_FIELDS,
  SCHEDULE_MATERIALITY,
  SCHEDULE_OUTCOMES,
  updateScheduleInputSchema,
  updateScheduleSchema,
} from "../../domain/schedules/schemas.ts";
import { findRequestSchema } from "../../domain/finds/schemas.ts";
import { runSchema } from "./runs.ts";

// Schedules (docs/monitors.md): a base's cells refreshed, or rows found, on a cron or an interval.
// Each execution is a run (trigger schedule). Making, changing and triggering one spends credits
// later without asking, so they need runs:write.

const scheduleFindSchema = findRequestSchema
  .pick(SCHEDULE_FIND_FIELDS)
  .describe(
    "behavior find: what each execution looks for (as POST /finds), always leaving out entities the base already has; count is per execution.",
  );
const findField = scheduleFindSchema
  .nullable()
  .optional()
  .describe("behavior find: what to look for; null for refresh.");

export const scheduleSchema = z
  .strictObject({
    id: z.string().describe("The schedule's id (sch_…)."),
    baseId: z.string().describe("Its base."),
    name: z.string().describe("Its name."),
    cron: z.string().nullable().describe("Its five-field cron expression; null when every is set."),
    timezone: z.string().describe("The IANA time zone cron is read in."),
    every: z.number().int().nullable().describe("Its interval in seconds; null when cron is set."),
    behavior: z.enum(SCHEDULE_BEHAVIORS).describe("refresh or find."),
    materiality: z
      .enum(SCHEDULE_MATERIALITY)
      .describe("How a refreshed value counts as changed: type, or model (text changes judged by the model)."),
    columnIds: z.array(z.string()).nullable().describe("The columns it refreshes; null: every generated column."),
    rows: rowsSelectionSchema,
    find: scheduleFindSchema.nullable().describe("What behavior find looks for; null for refresh."),
    maxCredits: z.number().int().nullable().describe("Each execution's credit cap; null: the deployment's default."),
    enabled: z.boolean().describe("Whether ticks run it."),
    nextRunAt: nullableIsoDate("Its next tick; null when disabled"),
    nextRunTimes: z.array(z.string()).describe("Its next three ticks (ISO 8601); empty when disabled."),
    lastRunAt: nullableIsoDate("When it last executed (a run started, nothing to run, or an error)"),
    lastRunId: z.string().nullable().describe("The run of its last execution that started one."),
    lastStatus: z
      .enum(SCHEDULE_OUTCOMES)
      .nullable()
      .describe(
        "How its last tick or trigger ended: started (a run), empty (nothing to run), skipped (its previous run was still open) or error.",
      ),
    lastError: z.string().nullable().describe("Why its last execution failed; null unless lastStatus is error."),
    skippedCount: z
      .number()
      .int()
      .min(0)
      .describe("Ticks skipped because its previous run was still running or paused."),
    lastSkippedAt: nullableIsoDate("When a tick was last skipped"),
    createdAt: isoDate("When it was made"),
    updatedAt: isoDate("When it last changed"),
  })
  .describe("A schedule: what to refresh (or find) and when.");

const scheduleParams = z.object({
  baseId: baseIdParam,
  scheduleId: pathId("The schedule's id (sch_…).", "schedule_not_found"),
});
const FIELDS = ["name", "cron", "timezone", "every", "behavior", "materiality", "maxCredits", "enabled"] as const;

export const listSchedules = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/schedules",
  scope: "rows:read",
  summary: "List schedules",
  description: "The base's schedules, oldest first, each with its next three ticks.",
  params: baseParams,
  response: z.strictObject({ schedules: z.array(scheduleSchema).describe("The schedules.") }),
});

export const createSchedule = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/schedules",
  scope: "runs:write",
  audit: { action: "schedule.create", target: "schedule", fields: FIELDS },
  summary: "Create a schedule",
  description:
    "Refreshes the chosen cells (or finds new rows) on a cron in a time zone, or every 1 hour to 30 days. Its first tick is the next cron time, or one interval from now. 400 invalid_schedule names the bad field (details.field: cron, timezone, every, columnIds, find or materiality).",
  params: baseParams,
  body: createScheduleSchema.extend({ find: findField }),
  parseBody: createScheduleInputSchema,
  status: 201,
  response: scheduleSchema,
});

export const getSchedule = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/schedules/{scheduleId}",
  scope: "rows:read",
  summary: "Get a schedule",
  params: scheduleParams,
  response: scheduleSchema,
});

export const updateSchedule = defineEndpoint({
  method: "PATCH",
  path: "/api/v1/bases/{baseId}/schedules/{scheduleId}",
  scope: "runs:write",
  audit: { action: "schedule.update", target: "schedule", fields: FIELDS },
  summary: "Update a schedule",
  description:
    "Changes the fields given. A new cron, every or timezone, or enabling it again, counts from now: ticks missed meanwhile do not run.",
  params: scheduleParams,
  body: updateScheduleSchema.extend({ find: findField }),
  parseBody: updateScheduleInputSchema,
  response: scheduleSchema,
});

export const deleteSchedule = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/bases/{baseId}/schedules/{scheduleId}",
  scope: "runs:write",
  audit: { action: "schedule.delete", target: "schedule", fields: ["name"] },
  summary: "Delete a schedule",
  description: "Deletes the schedule; its runs stay, and a run still going finishes.",
  params: scheduleParams,
  response: z.strictObject({
    id: z.string().describe("The deleted schedule's id."),
    deleted: z.literal(true).describe("Always true."),
  }),
});

export const triggerSchedule = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/schedules/{scheduleId}/trigger",
  scope: "runs:write",
  audit: { action: "schedule.trigger", target: "schedule" },
  summary: "Run a schedule now",
  description:
    "Executes the schedule now, its next tick unchanged; the run is charged to the calling key. 202 with the run, or run null when no cell matched (outcome empty). 409 schedule_busy while its previous run is still running or paused.",
  params: scheduleParams,
  status: 202,
  response: z.strictObject({
    outcome: z.enum(["started", "empty"]).describe("started: a run; empty: nothing matched, no run."),
    queued: z.number().int().min(0).describe("Cells queued (0 for a find, whose run counts candidates)."),
    run: runSchema.nullable().describe("The execution's run; null when empty."),
    schedule: scheduleSchema,
  }),
});
