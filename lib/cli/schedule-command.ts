import { REMOTE_OPTIONS, remoteApi } from "./remote.ts";
import { intOption, stringOption, table, UsageError, type CommandInput, type ServerClientCommand } from "./command.ts";

// `npm run cli -- schedule list|create|trigger`: a base's schedules on the running server
// (docs/monitors.md). A client of the REST API: the server's schedulers run the ticks.

interface ScheduleView {
  id: string;
  name: string;
  cron: string | null;
  timezone: string;
  every: number | null;
  behavior: string;
  enabled: boolean;
  nextRunAt: string | null;
  nextRunTimes: string[];
  lastStatus: string | null;
  lastRunId: string | null;
}

const enc = encodeURIComponent;
const path = (input: CommandInput) => `/api/v1/bases/${enc(stringOption(input, "base"))}/schedules`;
const cadence = (s: ScheduleView) => (s.cron ? `${s.cron} (${s.timezone})` : `every ${s.every} s`);
const print = (input: CommandInput, value: unknown, lines: () => string[]) => {
  if (input.options.json) input.out(JSON.stringify(value));
  else for (const l of lines()) input.out(l);
};

/** Which rows' cells: at most one of --filter, --older-than-days and --below-confidence. */
function rowsOf(input: CommandInput): Record<string, unknown> | undefined {
  const given = ["filter", "older-than-days", "below-confidence"].filter((o) => input.options[o] !== undefined);
  if (given.length > 1) throw new UsageError(`Give one of --${given.join(", --")}.`);
  if (input.options.filter !== undefined) {
    try {
      return { filter: JSON.parse(stringOption(input, "filter")) };
    } catch {
      throw new UsageError("--filter takes a Query Rows filter as JSON.");
    }
  }
  if (input.options["older-than-days"] !== undefined) return { olderThanDays: intOption(input, "older-than-days") };
  if (input.options["below-confidence"] !== undefined) {
    const x = Number(stringOption(input, "below-confidence"));
    if (!Number.isFinite(x)) throw new UsageError("--below-confidence takes a number above 0 up to 1.");
    return { belowConfidence: x };
  }
  return undefined;
}

export const SCHEDULE_COMMANDS: ServerClientCommand[] = [
  {
    path: "schedule list",
    summary: "List a base's schedules on the running server: cadence, next tick, last outcome.",
    usage: "--base <baseId> [--url <server>] [--api-key <key>] [--json]",
    options: { base: { type: "string", required: true }, ...REMOTE_OPTIONS },
    runtime: false,
    async run(config, input) {
      const res = await remoteApi(config, input).get<{ schedules: ScheduleView[] }>(path(input));
      print(input, res, () =>
        res.schedules.length === 0
          ? ["No schedules."]
          : table([
              ["ID", "NAME", "BEHAVIOR", "WHEN", "NEXT", "LAST"],
              ...res.schedules.map((s) => [
                s.id,
                s.name,
                s.behavior,
                cadence(s),
                s.enabled ? (s.nextRunAt ?? "") : "disabled",
                s.lastStatus ?? "",
              ]),
            ]),
      );
    },
  },
  {
    path: "schedule create",
    summary: "Schedule a refresh of a base's generated cells on a cron or an interval (1 hour to 30 days).",
    usage:
      '--base <baseId> (--cron "<expr>" [--timezone <IANA>] | --every <6h|1d|3600>) [--name <name>] [--columns <id,id>] [--filter <json> | --older-than-days <n> | --below-confidence <x>] [--max-credits <n>] [--materiality type|model] [--disabled] [--url <server>] [--api-key <key>] [--json]',
    options: {
      base: { type: "string", required: true },
      name: { type: "string" },
      cron: { type: "string" },
      timezone: { type: "string" },
      every: { type: "string" },
      columns: { type: "string" },
      filter: { type: "string" },
      "older-than-days": { type: "string" },
      "below-confidence": { type: "string" },
      "max-credits": { type: "string" },
      materiality: { type: "string" },
      disabled: { type: "boolean" },
      ...REMOTE_OPTIONS,
    },
    runtime: false,
    async run(config, input) {
      if ((input.options.cron === undefined) === (input.options.every === undefined))
        throw new UsageError("Give one of --cron and --every.");
      const every = input.options.every === undefined ? undefined : stringOption(input, "every");
      const columns = input.options.columns === undefined ? undefined : stringOption(input, "columns");
      const s = await remoteApi(config, input).post<ScheduleView>(path(input), {
        name: input.options.name === undefined ? undefined : stringOption(input, "name"),
        cron: input.options.cron === undefined ? undefined : stringOption(input, "cron"),
        timezone: input.options.timezone === undefined ? undefined : stringOption(input, "timezone"),
        every: every !== undefined && /^\d+$/.test(every) ? Number(every) : every,
        columnIds: columns
          ?.split(",")
          .map((c) => c.trim())
          .filter(Boolean),
        rows: rowsOf(input),
        maxCredits: intOption(input, "max-credits"),
        materiality: input.options.materiality === undefined ? undefined : stringOption(input, "materiality"),
        enabled: input.options.disabled === true ? false : undefined,
      });
      print(input, s, () => [
        `Schedule ${s.id} ("${s.name}"): ${s.behavior}, ${cadence(s)}.`,
        s.enabled ? `Next ticks: ${s.nextRunTimes.join(", ")}.` : "Disabled: no tick runs it.",
      ]);
    },
  },
  {
    path: "schedule trigger",
    summary: "Run a schedule now on the running server (its next tick unchanged).",
    usage: "--base <baseId> --schedule <scheduleId> [--url <server>] [--api-key <key>] [--json]",
    options: {
      base: { type: "string", required: true },
      schedule: { type: "string", required: true },
      ...REMOTE_OPTIONS,
    },
    runtime: false,
    async run(config, input) {
      const res = await remoteApi(config, input).post<{ outcome: string; queued: number; run: { id: string } | null }>(
        `${path(input)}/${enc(stringOption(input, "schedule"))}/trigger`,
      );
      print(input, res, () => [
        res.run ? `Run ${res.run.id} started: ${res.queued} cell(s) queued.` : "Nothing to run: no cell matched.",
      ]);
    },
  },
];
