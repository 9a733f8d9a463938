import type { z } from "zod";
import type { scheduleSchema } from "@/lib/http/schemas/schedules.ts";

// The schedules dialog's pure side: a form's draft to the Create Schedule body, and a schedule's
// cadence, rows and run times in words, in the viewer's time zone.

export type ScheduleView = z.infer<typeof scheduleSchema>;

export interface ScheduleDraft {
  name: string;
  mode: "cron" | "every";
  cron: string;
  timezone: string;
  everyCount: string;
  everyUnit: "hours" | "days";
  /** Empty: every generated column. */
  columnIds: string[];
  rows: "all" | "olderThanDays" | "belowConfidence";
  olderThanDays: string;
  /** Percent, 1 to 100. */
  belowConfidence: string;
  maxCredits: string;
  /** model: text changes are judged material or not by the model (charged). */
  materiality: "type" | "model";
  enabled: boolean;
}

export const viewerTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

export const emptyDraft = (timezone: string): ScheduleDraft => ({
  name: "",
  mode: "every",
  cron: "0 6 * * 1",
  timezone,
  everyCount: "24",
  everyUnit: "hours",
  columnIds: [],
  rows: "all",
  olderThanDays: "30",
  belowConfidence: "70",
  maxCredits: "",
  materiality: "type",
  enabled: true,
});

export interface CreateScheduleBody {
  name: string;
  behavior: "refresh";
  cron?: string;
  timezone?: string;
  every?: number;
  columnIds: string[] | null;
  rows: { all: true } | { olderThanDays: number } | { belowConfidence: number };
  maxCredits: number | null;
  materiality: "type" | "model";
  enabled: boolean;
}

const HOUR = 3_600;
const DAY = 86_400;

const wholeNumber = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

/** The request body of a draft, or what is wrong with it, naming the field as the form labels it. */
export function draftToBody(d: ScheduleDraft): { body: CreateScheduleBody } | { error: string } {
  const name = d.name.trim();
  if (!name) return { error: "Name: give the schedule a name." };
  let cadence: Pick<CreateScheduleBody, "cron" | "timezone" | "every">;
  if (d.mode === "cron") {
    const cron = d.cron.trim().replace(/\s+/g, " ");
    if (cron.split(" ").length !== 5) return { error: "Cron: five fields, e.g. 0 6 * * 1 (Mondays at 06:00)." };
    cadence = { cron, timezone: d.timezone.trim() || "UTC" };
  } else {
    const n = wholeNumber(d.everyCount);
    const seconds = n * (d.everyUnit === "hours" ? HOUR : DAY);
    if (!Number.isInteger(n) || seconds < HOUR || seconds > 30 * DAY)
      return { error: "Every: between 1 hour and 30 days." };
    cadence = { every: seconds };
  }
  let rows: CreateScheduleBody["rows"] = { all: true };
  if (d.rows === "olderThanDays") {
    const days = wholeNumber(d.olderThanDays);
    if (!(days >= 1 && days <= 3_650)) return { error: "Older than: 1 to 3,650 days." };
    rows = { olderThanDays: days };
  } else if (d.rows === "belowConfidence") {
    const pct = Number(d.belowConfidence.trim());
    if (!(pct > 0 && pct <= 100)) return { error: "Below confidence: above 0 up to 100%." };
    rows = { belowConfidence: pct / 100 };
  }
  let maxCredits: number | null = null;
  if (d.maxCredits.trim()) {
    maxCredits = wholeNumber(d.maxCredits);
    if (!(maxCredits >= 1)) return { error: "Max credits: a whole number of credits, or empty for the default." };
  }
  return {
    body: {
      name,
      behavior: "refresh",
      ...cadence,
      columnIds: d.columnIds.length ? d.columnIds : null,
      rows,
      maxCredits,
      materiality: d.materiality,
      enabled: d.enabled,
    },
  };
}

/** "Every 6 hours", "Every 2 days", or "0 6 * * 1 (Europe/Berlin)". */
export function describeCadence(s: Pick<ScheduleView, "cron" | "every" | "timezone">): string {
  if (s.cron) return `Cron ${s.cron} (${s.timezone})`;
  const every = s.every ?? 0;
  if (every % DAY === 0) return every === DAY ? "Every day" : `Every ${every / DAY} days`;
  if (every % HOUR === 0) return every === HOUR ? "Every hour" : `Every ${every / HOUR} hours`;
  return `Every ${Math.round(every / 60)} minutes`;
}

/** Which rows' cells it refreshes, in words. */
export function describeRows(rows: ScheduleView["rows"]): string {
  if ("olderThanDays" in rows) return `cells older than ${rows.olderThanDays} days`;
  if ("belowConfidence" in rows) return `cells below ${Math.round(rows.belowConfidence * 100)}% confidence`;
  if ("filter" in rows) return "rows matching a filter";
  return "all rows";
}

/** A run time in the viewer's zone: "Mon, Dec 14, 06:00 CET". */
export function formatRunTime(iso: string, timeZone: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(new Date(iso));
}
