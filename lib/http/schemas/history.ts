import { z } from "zod";
import { defineEndpoint, intQuery, pathId } from "../endpoint.ts";
import { baseIdParam, cursorQuery } from "./common.ts";
import { runParams } from "./runs.ts";
import { DEFAULT_HISTORY_PAGE, HISTORY_KINDS, MAX_HISTORY_PAGE } from "../../domain/history/entry.ts";

// Cell history: every change of a cell's value or state, and reverts of one change or of a run.

const rowIdParam = pathId("The row's id (sr_…).", "row_not_found");
const columnIdParam = pathId("The column's id (scol_…).", "column_not_found");

const historyEntrySchema = z
  .strictObject({
    id: z.string().describe("The change's id (chg_…): revert it with Revert a Cell."),
    rowId: z.string().describe("The row."),
    columnId: z.string().describe("The column."),
    at: z.string().describe("When (ISO 8601, UTC)."),
    kind: z
      .enum(HISTORY_KINDS)
      .describe(
        "What made it: answer (an AI, HTTP or waterfall cell's outcome), edit, import, review, formula (recomputed), output (an HTTP column's extra output) or revert.",
      ),
    actor: z
      .strictObject({
        runId: z.string().nullable().describe("The run that made it, if any."),
        actorId: z.string().nullable().describe("The API key (key_…) or user (usr_…) that made it, if known."),
      })
      .describe("Who made the change."),
    before: z
      .strictObject({
        value: z.string().describe('The value before ("" for none).'),
        status: z.string().nullable().describe("A generated cell's status before; null for others or unknown."),
      })
      .describe("The cell before the change."),
    after: z
      .strictObject({
        value: z.string().describe('The value after ("" for none).'),
        status: z.string().nullable().describe("A generated cell's status after; null for others."),
        sources: z.array(z.string()).nullable().describe("The sources of the value after (at most 10)."),
        confidence: z.number().nullable().describe("Its confidence score, when the model gave one."),
      })
      .describe("The cell after the change."),
    reason: z.string().nullable().describe("An error code, or the review action (accept, edit, rerun, undo)."),
  })
  .describe("One change of one cell.");

export const rowHistory = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/rows/{rowId}/history",
  scope: "rows:read",
  summary: "Row history",
  description: `The changes of a row's cells, newest first, paged. Kept HISTORY_RETENTION_DAYS (default 90) days, and at most 500 per cell. A refresh that found the same value (as its column's type compares it) is no change.`,
  params: z.object({ baseId: baseIdParam, rowId: rowIdParam }),
  query: z.object({
    columnId: z.string().max(100).optional().describe("Only this column's changes."),
    limit: intQuery(
      "limit",
      1,
      MAX_HISTORY_PAGE,
      `Page size, 1 to ${MAX_HISTORY_PAGE}; default ${DEFAULT_HISTORY_PAGE}.`,
    ),
    cursor: cursorQuery("changes"),
  }),
  response: z.strictObject({
    entries: z.array(historyEntrySchema).describe("Changes, newest first."),
    nextCursor: z.string().nullable().describe("The cursor of the next page; null on the last page."),
  }),
});

export const revertCell = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/rows/{rowId}/cells/{columnId}/revert",
  scope: "rows:write",
  audit: { action: "cell.revert", target: "row", fields: ["columnId"] },
  summary: "Revert a cell",
  description:
    "Puts the cell back to what it held before the change historyId: its value, and for a generated cell the sources and confidence it had. It is written like an edit: formulas follow, dependent AI cells become stale (not run), and the revert is itself a change in the history. 409 not_revertible for a formula, or a cell pending or running.",
  params: z.object({ baseId: baseIdParam, rowId: rowIdParam, columnId: columnIdParam }),
  body: z.strictObject({
    historyId: z.string().min(1).max(100).describe("The change to undo (chg_…), from Row History."),
  }),
  response: z.strictObject({
    rowId: z.string().describe("The row."),
    columnId: z.string().describe("The column."),
    revertedTo: z
      .strictObject({
        value: z.string().describe('The value the cell holds now ("" for none: a generated cell is idle again).'),
        historyId: z.string().describe("The change undone."),
      })
      .describe("What the cell went back to."),
  }),
});

export const revertRun = defineEndpoint({
  method: "POST",
  path: "/api/v1/runs/{runId}/revert",
  scope: "rows:write",
  audit: { action: "run.revert", target: "run", fields: ["cells", "dryRun"] },
  summary: "Revert a run",
  description:
    "Puts every cell whose last change was this run's back to what it held before the run: answers, outputs, and the values its request wrote. A cell changed since (an edit, a review, another run) is left alone, and formulas follow their inputs. Send dryRun first to learn how many cells it would revert. 409 not_revertible while the run is running or paused.",
  params: runParams,
  bodyType: "optional-json",
  body: z.strictObject({ dryRun: z.boolean().optional().describe("true to count only; default false.") }),
  response: z.strictObject({
    runId: z.string().describe("The run."),
    dryRun: z.boolean().describe("Whether nothing was changed."),
    cells: z.number().int().describe("Cells reverted (or that would be)."),
    rows: z.number().int().describe("Rows they are in."),
  }),
});
