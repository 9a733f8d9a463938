import { z } from "zod";
import { filterSchema } from "../query/index.ts";

// What a client sends to make or change a schedule (docs/monitors.md). No statements: the
// endpoint schemas, MCP and the UI's types read it. Cron, timezone and every are checked by the
// domain (cadence.ts), which names the bad field in invalid_schedule.

export const SCHEDULE_LIMITS = {
  minEverySeconds: 3_600,
  maxEverySeconds: 30 * 86_400,
  /** A cron's runs are at least this far apart, as every's are. */
  minCronGapSeconds: 3_600,
  perBase: 50,
  nameChars: 200,
  /** Upcoming run times a schedule's view lists. */
  nextRunTimes: 3,
} as const;

export const SCHEDULE_BEHAVIORS = ["refresh", "find"] as const;
export type ScheduleBehavior = (typeof SCHEDULE_BEHAVIORS)[number];

/** How a refreshed value counts as changed: as its column type compares it, or, for text, as the model judges it. */
export const SCHEDULE_MATERIALITY = ["type", "model"] as const;
export type ScheduleMateriality = (typeof SCHEDULE_MATERIALITY)[number];

/** How the last execution ended: started a run, found nothing to run, was skipped, or failed. */
export const SCHEDULE_OUTCOMES = ["started", "empty", "skipped", "error"] as const;

const rowsFields = {
  all: z.strictObject({ all: z.literal(true).describe("Every row.") }),
  olderThanDays: z.strictObject({
    olderThanDays: z
      .number()
      .int()
      .min(1)
      .max(3_650)
      .describe("Cells last checked more than this many days ago, 1 to 3,650; cells never generated count too."),
  }),
  belowConfidence: z.strictObject({
    belowConfidence: z
      .number()
      .gt(0)
      .max(1)
      .describe("Cells whose confidence score is below this, above 0 up to 1; cells without a score are left out."),
  }),
};

const rowsDescription =
  'Which rows\' cells to refresh: {"all": true} (default), {"filter": <a Query Rows filter>}, {"olderThanDays": n} or {"belowConfidence": x}.';

export const rowsSelectionSchema = z
  .union([
    rowsFields.all,
    z.strictObject({ filter: filterSchema.describe("A Query Rows filter the rows must match.") }),
    rowsFields.olderThanDays,
    rowsFields.belowConfidence,
  ])
  .describe(rowsDescription);
// The filter tree is parsed against the columns (parseFilter), which names the bad node.
const rowsSelectionInputSchema = z.union([
  rowsFields.all,
  z.strictObject({ filter: z.unknown().refine((f) => f !== undefined, "filter is required") }),
  rowsFields.olderThanDays,
  rowsFields.belowConfidence,
]);
export type RowsSelection =
  | { all: true }
  | { filter: unknown }
  | { olderThanDays: number }
  | { belowConfidence: number };

/** The fields of a find request (finds' findRequestSchema) a schedule of behavior find keeps. */
export const SCHEDULE_FIND_FIELDS = {
  query: true,
  criteria: true,
  count: true,
  entity: true,
  includeUnclear: true,
} as const;
export interface ScheduleFind {
  query: string;
  criteria: string[];
  count: number;
  entity?: { type?: string; description?: string };
  includeUnclear?: boolean;
}
// Checked against finds' own schema by the domain (store.ts), which loads the finds aggregate.
const findInput = z.record(z.string(), z.unknown());

const fields = {
  name: z.string().trim().min(1).max(SCHEDULE_LIMITS.nameChars).describe("A name for people, 1 to 200 characters."),
  cron: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .nullable()
    .describe(
      'A five-field cron expression, e.g. "0 6 * * 1" (Mondays at 06:00 in timezone); runs at least an hour apart.',
    ),
  timezone: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .describe('An IANA time zone for cron, e.g. "Europe/Berlin"; default UTC.'),
  every: z
    .union([z.number().int(), z.string().trim().min(1).max(40)])
    .nullable()
    .describe(
      'Instead of cron: an interval of 1 hour to 30 days, as seconds (3600) or a duration ("6h", "1d", "2w", "90m", "PT12H", "P1D").',
    ),
  behavior: z
    .enum(SCHEDULE_BEHAVIORS)
    .describe("refresh (default): queue the chosen cells again. find: look for new rows with find."),
  materiality: z
    .enum(SCHEDULE_MATERIALITY)
    .describe(
      'refresh: "type" (default) counts a value changed when it differs as its column type compares it; "model" also asks the column\'s model whether a text value\'s change is material, with a one-line reason (charged per judged cell).',
    ),
  columnIds: z
    .array(z.string().max(100))
    .min(1)
    .max(200)
    .nullable()
    .describe("The generated columns to refresh; null or absent: every generated column when it runs."),
  rows: rowsSelectionSchema,
  find: findInput
    .nullable()
    .describe("behavior find: { query, criteria, count, entity?, includeUnclear? } per execution; null for refresh."),
  maxCredits: z
    .number()
    .int()
    .min(1)
    .max(1_000_000_000)
    .nullable()
    .describe("Each execution's credit cap: its run pauses (pausedReason budget) rather than spend more."),
  enabled: z.boolean().describe("false: no tick runs it (trigger still does). Default true."),
};

/** The body's fields; lib/http/schemas/schedules.ts documents find with finds' schema. */
export const SCHEDULE_FIELDS = fields;

export const createScheduleSchema = z
  .strictObject({
    ...fields,
    name: fields.name.optional(),
    cron: fields.cron.optional(),
    timezone: fields.timezone.optional(),
    every: fields.every.optional(),
    behavior: fields.behavior.optional(),
    materiality: fields.materiality.optional(),
    columnIds: fields.columnIds.optional(),
    rows: fields.rows.optional(),
    find: fields.find.optional(),
    maxCredits: fields.maxCredits.optional(),
    enabled: fields.enabled.optional(),
  })
  .describe("A schedule: exactly one of cron and every, and what each execution runs.");

export const updateScheduleSchema = z
  .strictObject(
    Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])) as {
      [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]>;
    },
  )
  .describe("The fields of the schedule to change; the rest are kept. Setting cron clears every, and the reverse.");

export const createScheduleInputSchema = createScheduleSchema.extend({ rows: rowsSelectionInputSchema.optional() });
export const updateScheduleInputSchema = updateScheduleSchema.extend({ rows: rowsSelectionInputSchema.optional() });
export type CreateScheduleInput = z.infer<typeof createScheduleInputSchema>;
export type UpdateScheduleInput = z.infer<typeof updateScheduleInputSchema>;
