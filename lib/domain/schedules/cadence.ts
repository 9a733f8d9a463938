import { Cron } from "croner";
import { appError } from "../../errors.ts";
import { SCHEDULE_LIMITS } from "./schemas.ts";

// When a schedule runs: a five-field cron in its time zone (croner, which handles daylight saving
// time: a time skipped by the clock change runs at the first time after it), or a fixed interval.
// Pure functions of the schedule and a time, so the scheduler's clock can be injected.

export interface Cadence {
  cron: string | null;
  timezone: string;
  everySeconds: number | null;
}

const invalid = (field: string, message: string) => appError("invalid_schedule", message, { field });

/** An IANA time zone name Intl knows; invalid_schedule otherwise. */
export function checkTimezone(timezone: string): string {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: timezone }).resolvedOptions().timeZone;
  } catch {
    throw invalid("timezone", `"${timezone}" is not a time zone: use an IANA name such as "Europe/Berlin" or "UTC".`);
  }
}

const UNIT_SECONDS: Record<string, number> = { m: 60, h: 3_600, d: 86_400, w: 604_800 };
const SHORT = /^(\d{1,6}) ?([mhdw])$/;
const ISO = /^P(?:(\d{1,4})W)?(?:(\d{1,4})D)?(?:T(?:(\d{1,6})H)?(?:(\d{1,6})M)?)?$/;

/** Seconds of an interval: a number of seconds, "6h"-like, or ISO 8601 ("PT6H", "P1D"); 1 hour to 30 days. */
export function parseEvery(every: number | string): number {
  let seconds: number | null = null;
  if (typeof every === "number") seconds = every;
  else {
    const text = every.trim();
    const short = SHORT.exec(text.toLowerCase());
    const iso = ISO.exec(text.toUpperCase());
    if (short) seconds = Number(short[1]) * UNIT_SECONDS[short[2]];
    else if (/^\d{1,9}$/.test(text)) seconds = Number(text);
    else if (iso && text.length > 1 && !text.toUpperCase().endsWith("T")) {
      const [w, d, h, m] = iso.slice(1).map((x) => Number(x ?? 0));
      seconds = w * 604_800 + d * 86_400 + h * 3_600 + m * 60;
    }
  }
  if (seconds === null || !Number.isInteger(seconds))
    throw invalid(
      "every",
      `"${every}" is not an interval: give seconds (3600) or a duration such as "6h", "1d", "PT12H".`,
    );
  if (seconds < SCHEDULE_LIMITS.minEverySeconds || seconds > SCHEDULE_LIMITS.maxEverySeconds)
    throw invalid("every", `every is 1 hour to 30 days (3600 to 2592000 seconds); ${seconds} seconds is outside that.`);
  return seconds;
}

function cronOf(cron: string, timezone: string): Cron {
  try {
    return new Cron(cron, { timezone, paused: true, mode: "5-part" });
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^CronPattern: /, "") : String(e);
    throw invalid("cron", `"${cron}" is not a five-field cron expression (minute hour day month weekday): ${why}`);
  }
}

/** Checks a cron expression in its time zone: it parses, it runs again, and its runs are at least an hour apart. */
export function checkCron(cron: string, timezone: string, from: Date): string {
  const runs = cronOf(cron, timezone).nextRuns(25, from);
  if (runs.length === 0) throw invalid("cron", `"${cron}" never runs again.`);
  for (let i = 1; i < runs.length; i++) {
    if (runs[i].getTime() - runs[i - 1].getTime() < SCHEDULE_LIMITS.minCronGapSeconds * 1000)
      throw invalid("cron", `"${cron}" runs more often than hourly; a schedule runs at most once an hour.`);
  }
  return cron;
}

/**
 * The next `n` run times after `now`. An interval keeps its phase from `anchor` (the tick that was
 * due, or when the schedule was made), so a missed tick is followed by the next one on the grid,
 * never by a catch-up of each tick missed.
 */
export function nextRunTimes(c: Cadence, now: Date, n: number, anchor?: Date): Date[] {
  if (c.cron) return cronOf(c.cron, c.timezone).nextRuns(n, now);
  const step = c.everySeconds! * 1000;
  const start = (anchor ?? now).getTime();
  let first = start + step;
  if (first <= now.getTime()) first = start + (Math.floor((now.getTime() - start) / step) + 1) * step;
  return Array.from({ length: n }, (_, i) => new Date(first + i * step));
}

export const nextRunAt = (c: Cadence, now: Date, anchor?: Date): Date => nextRunTimes(c, now, 1, anchor)[0];
