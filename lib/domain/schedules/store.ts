import type { Tx } from "../../db/database.ts";
import type { Work } from "../../db/work.ts";
import { Prisma, type Schedule } from "../../db/generated/client.ts";
import { appError } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { loadBase, loadColumns } from "../base-context.ts";
import { isGenerated } from "../fill/kinds.ts";
import { parseFilter } from "../query/index.ts";
import { findRequestSchema } from "../finds/index.ts";
import { checkCron, checkTimezone, nextRunAt, nextRunTimes, parseEvery, type Cadence } from "./cadence.ts";
import {
  SCHEDULE_FIND_FIELDS,
  SCHEDULE_LIMITS,
  type CreateScheduleInput,
  type RowsSelection,
  type ScheduleFind,
  type UpdateScheduleInput,
} from "./schemas.ts";

// The one owner of the `schedules` table: making, reading, changing and deleting schedules, and
// their view. The scheduler's claims and executions are in execute.ts.

export interface ScheduleView {
  id: string;
  baseId: string;
  name: string;
  cron: string | null;
  timezone: string;
  /** The interval in seconds; null with cron. */
  every: number | null;
  behavior: string;
  materiality: string;
  columnIds: string[] | null;
  rows: RowsSelection;
  find: ScheduleFind | null;
  maxCredits: number | null;
  enabled: boolean;
  nextRunAt: string | null;
  nextRunTimes: string[];
  lastRunAt: string | null;
  lastRunId: string | null;
  lastStatus: string | null;
  lastError: string | null;
  skippedCount: number;
  lastSkippedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function scheduleView(s: Schedule): ScheduleView {
  const upcoming =
    s.enabled && s.nextRunAt
      ? [s.nextRunAt, ...nextRunTimes(s, s.nextRunAt, SCHEDULE_LIMITS.nextRunTimes - 1, s.nextRunAt)]
      : [];
  return {
    id: s.id,
    baseId: s.baseId,
    name: s.name,
    cron: s.cron,
    timezone: s.timezone,
    every: s.everySeconds,
    behavior: s.behavior,
    materiality: s.materiality,
    columnIds: (s.columnIds as string[] | null) ?? null,
    rows: s.rows as RowsSelection,
    find: (s.find as ScheduleFind | null) ?? null,
    maxCredits: s.maxCredits,
    enabled: s.enabled,
    nextRunAt: s.enabled ? iso(s.nextRunAt) : null,
    nextRunTimes: upcoming.map((d) => d.toISOString()),
    lastRunAt: iso(s.lastRunAt),
    lastRunId: s.lastRunId,
    lastStatus: s.lastStatus,
    lastError: s.lastError,
    skippedCount: s.skippedCount,
    lastSkippedAt: iso(s.lastSkippedAt),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/** A schedule of this base in the caller's workspace; schedule_not_found otherwise. */
export async function loadSchedule(tx: Tx, workspaceId: string, baseId: string, scheduleId: string) {
  const s = await tx.schedule.findFirst({ where: { id: scheduleId, baseId, workspaceId } });
  if (!s) throw appError("schedule_not_found", `No schedule "${scheduleId}" in this base.`);
  return s;
}

type Settings = Required<Omit<CreateScheduleInput, "every" | "enabled" | "rows" | "find">> & {
  /** Checked against finds' schema by checkSettings, which stores what it parsed. */
  find: unknown;
  everySeconds: number | null;
  rows: RowsSelection;
};

/** Checks the whole of a schedule's settings against each other and the base's columns. */
async function checkSettings(tx: Tx, sheetId: string, s: Settings, now: Date): Promise<Cadence> {
  if ((s.cron === null) === (s.everySeconds === null))
    throw appError("invalid_schedule", "Give exactly one of cron and every.", { field: s.cron ? "every" : "cron" });
  const timezone = checkTimezone(s.timezone);
  if (s.cron !== null) checkCron(s.cron, timezone, now);
  const columns = await loadColumns(tx, sheetId);
  if (s.behavior === "find" && s.materiality === "model")
    throw appError("invalid_schedule", 'materiality "model" judges refreshed values: behavior "refresh" only.', {
      field: "materiality",
    });
  if (s.behavior === "find") {
    if (!s.find)
      throw appError("invalid_schedule", 'behavior "find" needs find: { query, criteria, count }.', { field: "find" });
    const find = findRequestSchema.pick(SCHEDULE_FIND_FIELDS).strict().safeParse(s.find);
    if (!find.success) {
      const issue = find.error.issues[0];
      throw appError("invalid_schedule", `find.${issue.path.join(".")}: ${issue.message}`, { field: "find" });
    }
    s.find = find.data;
  } else if (s.find) {
    throw appError("invalid_schedule", 'find is for behavior "find" only.', { field: "find" });
  }
  if (s.columnIds) {
    const generated = new Set(columns.filter(isGenerated).map((c) => c.id));
    const unknown = s.columnIds.filter((id) => !generated.has(id));
    if (unknown.length > 0)
      throw appError("invalid_schedule", `Not generated columns of this base: ${unknown.join(", ")}.`, {
        field: "columnIds",
        columnIds: unknown,
      });
  }
  if ("filter" in s.rows) parseFilter(s.rows.filter, columns, "rows.filter");
  return { cron: s.cron, timezone, everySeconds: s.everySeconds };
}

const jsonOrNull = (v: unknown) => (v === null || v === undefined ? Prisma.DbNull : (v as object));

export async function createSchedule(
  w: Work,
  workspaceId: string,
  baseId: string,
  input: CreateScheduleInput,
  now: Date,
): Promise<ScheduleView> {
  const tx = w.tx;
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const settings: Settings = {
    name: input.name ?? "Schedule",
    cron: input.cron ?? null,
    timezone: input.timezone ?? "UTC",
    everySeconds: input.every === undefined || input.every === null ? null : parseEvery(input.every),
    behavior: input.behavior ?? "refresh",
    materiality: input.materiality ?? "type",
    columnIds: input.columnIds ? [...new Set(input.columnIds)] : null,
    rows: (input.rows as RowsSelection | undefined) ?? { all: true },
    find: input.find ?? null,
    maxCredits: input.maxCredits ?? null,
  };
  const cadence = await checkSettings(tx, baseCtx.sheetId, settings, now);
  if ((await tx.schedule.count({ where: { baseId: baseCtx.baseId } })) >= SCHEDULE_LIMITS.perBase)
    throw appError("validation_failed", `A base has at most ${SCHEDULE_LIMITS.perBase} schedules.`);
  const s = await tx.schedule.create({
    data: {
      id: newId.schedule(),
      workspaceId,
      baseId: baseCtx.baseId,
      ...settings,
      timezone: cadence.timezone,
      columnIds: jsonOrNull(settings.columnIds),
      rows: settings.rows as object,
      find: jsonOrNull(settings.find),
      enabled: input.enabled ?? true,
      nextRunAt: nextRunAt(cadence, now),
      createdAt: now,
      updatedAt: now,
    },
  });
  w.emit({ type: "schedules.changed" });
  return scheduleView(s);
}

export async function updateSchedule(
  w: Work,
  workspaceId: string,
  baseId: string,
  scheduleId: string,
  input: UpdateScheduleInput,
  now: Date,
): Promise<ScheduleView> {
  const tx = w.tx;
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const old = await loadSchedule(tx, workspaceId, baseCtx.baseId, scheduleId);
  const cadenceGiven = input.cron !== undefined || input.every !== undefined;
  // Setting one of cron and every clears the other.
  const cron = input.cron !== undefined ? input.cron : input.every != null ? null : old.cron;
  const everySeconds =
    input.every !== undefined
      ? input.every === null
        ? null
        : parseEvery(input.every)
      : input.cron != null
        ? null
        : old.everySeconds;
  const settings: Settings = {
    name: input.name ?? old.name,
    cron,
    timezone: input.timezone ?? old.timezone,
    everySeconds,
    behavior: input.behavior ?? (old.behavior as Settings["behavior"]),
    materiality: input.materiality ?? (old.materiality as Settings["materiality"]),
    columnIds:
      input.columnIds !== undefined
        ? input.columnIds && [...new Set(input.columnIds)]
        : (old.columnIds as string[] | null),
    rows: (input.rows as RowsSelection | undefined) ?? (old.rows as RowsSelection),
    find: input.find !== undefined ? input.find : (old.find as ScheduleFind | null),
    maxCredits: input.maxCredits !== undefined ? input.maxCredits : old.maxCredits,
  };
  const cadence = await checkSettings(tx, baseCtx.sheetId, settings, now);
  const enabled = input.enabled ?? old.enabled;
  // A new cadence, or a schedule enabled again, counts from now: nothing missed meanwhile runs.
  const restart = cadenceGiven || input.timezone !== undefined || (enabled && !old.enabled);
  const s = await tx.schedule.update({
    where: { id: old.id },
    data: {
      ...settings,
      timezone: cadence.timezone,
      columnIds: jsonOrNull(settings.columnIds),
      rows: settings.rows as object,
      find: jsonOrNull(settings.find),
      enabled,
      ...(restart ? { nextRunAt: nextRunAt(cadence, now) } : {}),
      updatedAt: now,
    },
  });
  w.emit({ type: "schedules.changed" });
  return scheduleView(s);
}

export async function getSchedule(tx: Tx, workspaceId: string, baseId: string, scheduleId: string) {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  return scheduleView(await loadSchedule(tx, workspaceId, baseCtx.baseId, scheduleId));
}

export async function listSchedules(tx: Tx, workspaceId: string, baseId: string) {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const rows = await tx.schedule.findMany({
    where: { baseId: baseCtx.baseId, workspaceId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return { schedules: rows.map((s) => scheduleView(s)) };
}

/** Deletes a schedule; its runs stay, naming it. */
export async function deleteSchedule(w: Work, workspaceId: string, baseId: string, scheduleId: string) {
  const baseCtx = await loadBase(w.tx, workspaceId, baseId);
  const s = await loadSchedule(w.tx, workspaceId, baseCtx.baseId, scheduleId);
  await w.tx.schedule.delete({ where: { id: s.id } });
  w.emit({ type: "schedules.changed" });
  return { id: s.id, deleted: true as const };
}
