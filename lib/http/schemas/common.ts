import { z } from "zod";
import { fillViewSchema } from "../../domain/fill/schema.ts";
import { STEP_STATUSES } from "../../domain/cell-view.ts";
import { booleanQuery, pathId } from "../endpoint.ts";
import { AUTO_RUN_MODES, TOOL_NAMES } from "../../domain/column-model.ts";
import { COLUMN_TYPE_NAMES } from "../../domain/column-types/index.ts";

// Shapes shared by several endpoints: path ids, rows, cells and columns as the API shows them.

export const baseIdParam = pathId(
  "The base's id (8 characters), as in the table's URL in the web app.",
  "base_not_found",
);
export const baseParams = z.object({ baseId: baseIdParam });

export const cursorQuery = (what: string) =>
  z.string().min(1).max(200).optional().describe(`Opaque cursor: the nextCursor of the previous page of ${what}.`);

export const isoDate = (description: string) => z.string().describe(`${description} (ISO 8601 date-time, UTC).`);
export const nullableIsoDate = (description: string) =>
  z.string().nullable().describe(`${description} (ISO 8601 date-time, UTC); null when none.`);

// ----- rows and cells -----

export const rowIdSchema = z.string().describe("The row's id: sr_ followed by 20 characters.");

export const standardCellsSchema = z
  .record(z.string().describe("A column name."), z.string().describe('The cell value as text; "" when empty.'))
  .describe("Every column of the base by name, in column order.");

export const standardRowSchema = z
  .strictObject({ id: rowIdSchema, cells: standardCellsSchema })
  .describe("A row in the standard form: every cell a string.");

export const cellStatusSchema = z
  .enum(["idle", "pending", "running", "done", "error", "cancelled", "skipped", "not_found"])
  .describe(
    "The state of an AI cell: idle (never asked to run), pending, running, done, error, cancelled (its run was cancelled) skipped (its column's run condition was false for the row; metadata.additionalDetails says so) or not_found (an HTTP or waterfall cell: no provider had data; metadata.steps traces each).",
  );

const stepTraceSchema = z
  .strictObject({
    step: z.number().int().min(0).describe("The step's position, from 0."),
    kind: z.enum(["http", "tool", "ai", "formula"]).describe("What the step is."),
    label: z.string().optional().describe("The step's name, when it has one."),
    provider: z.string().describe("The host, tool or model asked."),
    status: z
      .enum(STEP_STATUSES)
      .describe(
        "found; cached (found, from the cache); not_found (no data); invalid (a value that failed the step's check); error; skipped (not reached: an earlier step found the value).",
      ),
    credits: z.number().int().min(0).describe("What the step cost."),
    ms: z.number().int().min(0).describe("How long it took."),
    url: z.string().optional().describe("The URL asked, secret values replaced by their names."),
    httpStatus: z.number().int().optional().describe("The provider's HTTP status."),
    error: z
      .strictObject({ code: z.string().describe("A stable code."), message: z.string().describe("What went wrong.") })
      .optional()
      .describe("Why the step failed."),
  })
  .describe("One step of an HTTP or waterfall cell.");

export const cellMetadataSchema = z
  .strictObject({
    sources: z
      .array(z.string().describe("A Markdown link, [label](url)."))
      .nullable()
      .describe("Where the value came from; null when none."),
    additionalDetails: z.string().nullable().describe("Extra context or reasoning for the value; null when none."),
    confidenceScore: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe("How reliable the value is, 0 to 1; null when unknown."),
    suppliedByUser: z.literal(true).optional().describe("Present when a user wrote the value into the AI cell."),
    excerpts: z
      .record(z.string().describe("A source URL."), z.string().describe("The passage the answer was grounded on."))
      .optional()
      .describe("The excerpt of each source the answer was grounded on, by source URL."),
    aiValue: z
      .string()
      .optional()
      .describe("Present when a reviewer corrected the value: what the model had answered."),
    calibratedConfidence: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe(
        "Present once the column has 30 or more reviews: confidenceScore mapped through an isotonic fit of the column's review history (see Measuring quality).",
      ),
    steps: z.array(stepTraceSchema).optional().describe("HTTP and waterfall cells: each step tried, in order."),
  })
  .describe("Metadata of a generated cell.");

export const expandedCellSchema = z
  .strictObject({
    value: z.string().describe('The cell value as text; "" when empty.'),
    metadata: cellMetadataSchema.optional().describe("Metadata of AI cells; absent for other cells."),
    status: cellStatusSchema.optional(),
    error: z
      .strictObject({
        code: z.string().describe("An error code of the catalog."),
        message: z.string().describe("What went wrong."),
      })
      .optional()
      .describe("Why the cell failed, when its status is error; code cancelled when its run was cancelled."),
    stale: z
      .literal(true)
      .optional()
      .describe(
        "Present when the column's AI settings or the cell's inputs changed after the value was generated or verified.",
      ),
    needsReview: z
      .boolean()
      .optional()
      .describe(
        "AI cells: done below the column's reviewThreshold, ended in error, or stale (and not verified, unless stale).",
      ),
    verified: z
      .boolean()
      .optional()
      .describe("AI cells: a reviewer accepted or corrected the value; it is never regenerated unless forced."),
    changedAt: z
      .string()
      .optional()
      .describe(
        "Generated cells: when a stored answer last replaced a different value (compared by the column's type); absent if never.",
      ),
  })
  .describe("A cell in the expanded form (expand=true).");

export const expandedRowSchema = z
  .strictObject({
    id: rowIdSchema,
    cells: z
      .record(z.string().describe("A column name."), expandedCellSchema)
      .describe("Every column of the base by name, in column order."),
    processing: z
      .boolean()
      .describe("true while any AI cell of the row is pending or running: poll the row until it is false."),
  })
  .describe("A row in the expanded form: every cell with its value and, for AI cells, metadata and status.");

export const expandQuery = z.object({
  expand: booleanQuery(
    "expand",
    "true (or 1) for cells in the expanded form with metadata, status and errors; default false.",
  ),
});

// ----- columns -----

export const columnIdSchema = z.string().describe("A column id: scol_ followed by 20 characters.");

export const columnViewSchema = z
  .strictObject({
    id: columnIdSchema,
    index: z.number().int().min(0).describe("Position of the column, from 0."),
    name: z.string().min(1).max(100).describe("The column name; also its key in a row's cells."),
    type: z.enum(COLUMN_TYPE_NAMES as unknown as [string, ...string[]]).describe("The column type."),
    isAiEnabled: z.boolean().describe("Whether AI generates this column's cells."),
    isPrimary: z.boolean().describe("Whether this is the base's one primary column."),
    inputColumnIds: z.array(columnIdSchema).describe("Ids of the columns this column reads as input; [] when none."),
    tools: z
      .array(z.strictObject({ name: z.enum(TOOL_NAMES).describe("A tool name.") }).describe("A tool the AI may use."))
      .describe("Tools the AI may use for this column; [] when none."),
    instructions: z.string().max(20_000).describe("What the AI should produce, or a description of the column."),
    columnOptions: z
      .record(z.string(), z.unknown())
      .describe(
        `Options: model ("provider:model"), autoRun (${AUTO_RUN_MODES.join(", ")}), options (the choices of a select column), reviewThreshold and reviewBy (AI columns: when a done cell needs review).`,
      ),
    fill: fillViewSchema,
    runIf: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe(
        "Generated columns: the run condition, a filter tree of Query Rows naming columns by id (send it back as it is); rows that do not match get a skipped cell. null when the column runs for every row.",
      ),
  })
  .describe("A column of a sheet.");

export const sheetSchema = z
  .strictObject({
    id: z.string().describe("The sheet id: sheet_ followed by 20 characters."),
    baseId: z.string().describe("The id of the base holding the sheet."),
    name: z.string().describe("The sheet name (the base's name)."),
  })
  .describe("The base's one sheet.");

export const baseStructureShape = {
  sheet: sheetSchema,
  sheetColumns: z.array(columnViewSchema).describe("Every column, in order."),
  primaryColumn: columnViewSchema.nullable().describe("The primary column (null only for a base without columns)."),
};
