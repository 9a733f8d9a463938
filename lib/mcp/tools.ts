import { z } from "zod";
import * as assistant from "../http/schemas/assistant.ts";
import * as bases from "../http/schemas/bases.ts";
import * as columns from "../http/schemas/columns.ts";
import * as rows from "../http/schemas/rows.ts";
import * as quality from "../http/schemas/quality.ts";
import * as review from "../http/schemas/review.ts";
import * as run from "../http/schemas/run.ts";
import * as runs from "../http/schemas/runs.ts";
import * as stepsApi from "../http/schemas/steps.ts";
import * as fillPreviewApi from "../http/schemas/fill-preview.ts";
import * as writeRows from "../http/schemas/write-rows.ts";
import { callEndpoint, pageThatFits, ToolError } from "./call.ts";
import { FIND_TOOLS } from "./find-tools.ts";
import { HISTORY_TOOLS } from "./history-tools.ts";
import { SCHEDULE_TOOLS } from "./schedule-tools.ts";
import { PEOPLE_TOOLS } from "./people-tools.ts";
import { SECRETS_TOOLS } from "./secrets-tools.ts";
import type { McpTool, ToolAnnotations } from "./tool-types.ts";

export type { McpTool, ToolAnnotations } from "./tool-types.ts";
export { FIND_TOOLS, HISTORY_TOOLS, PEOPLE_TOOLS, SCHEDULE_TOOLS, SECRETS_TOOLS };

// The MCP tools, one entry each: the endpoint(s) it calls (its input and output schemas come from
// them), its annotations, tool-only limits and a one-line summary. A tool without `run` calls its
// one endpoint with the arguments as given. To add a tool for a new endpoint, add an entry.

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const MAX_TOOL_ROWS = 100;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

const cell = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .describe(
    "A column name: return only this cell, in detail (value, status, confidence, sources with excerpts, details).",
  );
const pageLimit = z
  .number()
  .int()
  .min(1)
  .max(MAX_TOOL_ROWS)
  .optional()
  .describe(`Rows per page, 1 to ${MAX_TOOL_ROWS}; default 50. Pass nextCursor as cursor for the next page.`);
const action = z
  .enum(["create", "modify", "delete"])
  .describe("create a column, modify one (columnId), or delete one (columnId).");

export const TOOLS: readonly McpTool[] = [
  {
    name: "list_bases",
    title: "List bases",
    endpoints: [bases.listBases],
    annotations: READ,
    summary: (r) =>
      `${plural(r.bases.length, "base")}: ${r.bases.map((b: any) => `${b.name} (${b.baseId})`).join(", ")}`,
  },
  {
    name: "get_base_structure",
    title: "Get a base's structure",
    endpoints: [bases.getBaseStructure],
    annotations: READ,
    summary: (r) =>
      `${r.sheet.name}: ${plural(r.sheetColumns.length, "column")} (${r.sheetColumns.map((c: any) => `${c.name}: ${c.type}${c.isAiEnabled ? ", AI" : ""}`).join("; ")})`,
  },
  {
    name: "query_rows",
    title: "Read rows, a page at a time",
    description:
      "Finds and reads rows, at most 100 per call: filter (and/or/not trees of conditions on columns, or on AI cells' status, confidence, needsReview, verified, stale), sort, search, a saved view (viewId), count. expand=true gives each AI cell's status, confidence, sources and details. Pass nextCursor as cursor for the next page.",
    endpoints: [rows.queryRows],
    annotations: READ,
    extra: { limit: pageLimit },
    run: (args, invoke) => pageThatFits(invoke, rows.queryRows, args, 50),
    summary: (r) =>
      `${plural(r.rows.length, "row")}${r.nextCursor ? `; more with cursor ${r.nextCursor}` : "; no more rows"}.`,
  },
  {
    name: "get_row",
    title: "Read one row, or one cell in detail",
    endpoints: [rows.getRow],
    annotations: READ,
    extra: { cell },
    run: async (args, invoke) => {
      const row = await callEndpoint(
        invoke,
        rows.getRow,
        args.cell ? { ...args, expand: true } : args,
        new Set(["cell"]),
      );
      if (!args.cell) return row;
      // Own properties only: "__proto__" or "constructor" is a column only when the base has one so named.
      if (!Object.hasOwn(row.cells, args.cell))
        throw new ToolError("unknown_column", `No column "${args.cell}" in this base.`);
      return { id: row.id, processing: row.processing, cells: { [args.cell]: row.cells[args.cell] } };
    },
    summary: (r, args) =>
      args.cell
        ? `${args.cell} of ${r.id}: ${JSON.stringify(r.cells[args.cell].value).slice(0, 200)} (${r.cells[args.cell].status ?? "no AI"})`
        : `Row ${r.id}.`,
  },
  {
    name: "add_rows",
    title: "Add rows",
    endpoints: [writeRows.addRows],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    maxItems: { rows: MAX_TOOL_ROWS },
    summary: (r) => `Added ${plural(r.rows.length, "row")}; their empty AI cells are being generated.`,
  },
  {
    name: "update_rows",
    title: "Update rows (their cells)",
    endpoints: [writeRows.updateRows],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    maxItems: { rows: MAX_TOOL_ROWS },
    summary: (r) => `Updated ${plural(r.rows.length, "row")}; ${plural(r.errors.length, "row")} failed.`,
  },
  {
    name: "delete_rows",
    title: "Delete rows",
    endpoints: [writeRows.deleteRows],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    maxItems: { rowIds: 1_000 },
    summary: (r) => `Deleted ${plural(r.deletedRowIds.length, "row")}; ${plural(r.errors.length, "id")} not found.`,
  },
  {
    name: "create_base",
    title: "Create a base",
    endpoints: [bases.createBase],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    summary: (r) => `Created base ${r.sheet.name} (${r.baseId}) with ${plural(r.sheetColumns.length, "column")}.`,
  },
  {
    name: "manage_column",
    title: "Create, modify or delete a column",
    description:
      "The schema tool: create a column, modify any of its fields (columnId), or delete it (columnId; force for the primary column or one others use as input).",
    endpoints: [columns.createColumn, columns.updateColumn, columns.deleteColumn],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    extra: { action },
    output: z.union([columns.createColumn.response, columns.deleteColumn.response]),
    run: (args, invoke) => {
      const endpoint = { create: columns.createColumn, modify: columns.updateColumn, delete: columns.deleteColumn }[
        args.action as "create"
      ];
      return callEndpoint(invoke, endpoint, args, new Set(["action"]));
    },
    summary: (r, args) =>
      args.action === "delete"
        ? `Deleted column ${r.id}.`
        : `${args.action === "create" ? "Created" : "Modified"} column ${r.name} (${r.id}).`,
  },
  {
    name: "estimate_run",
    title: "Estimate a run",
    endpoints: [run.estimateRun],
    annotations: READ,
    summary: (r) => `${plural(r.cells, "cell")} for ${r.credits} credits; balance ${r.balance ?? "unlimited"}.`,
  },
  {
    name: "run_cells",
    title: "Run AI cells",
    endpoints: [run.runCells],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    summary: (r) => `Queued ${plural(r.queued, "cell")}; read them with query_rows (expand=true) as they fill.`,
  },
  {
    name: "review_cells",
    title: "Review AI cells",
    description:
      "Accepts (verifies), edits (stores a corrected value, verified) or re-runs AI cells; verified cells are never regenerated and teach the column as examples.",
    endpoints: [review.reviewCells],
    // edit overwrites a cell's value; rerun asks the model (and the web) again and charges again.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    maxItems: { cells: 100 },
    summary: (r) =>
      `${plural(r.cells?.length ?? 0, "cell")} reviewed${r.errors?.length ? `; ${plural(r.errors.length, "error")}` : ""}.`,
  },
  {
    name: "column_quality",
    title: "Measure a column's quality",
    endpoints: [quality.columnQuality],
    annotations: READ,
    summary: (r) =>
      `${plural(r.reviewed, "reviewed cell")}, agreement ${r.agreement ?? "n/a"}, calibration error ${r.expectedCalibrationError ?? "n/a"}; suggested review threshold ${r.suggestedReviewThreshold ?? "none yet"}; ${r.needsReview} need review.`,
  },
  {
    name: "column_steps",
    title: "Measure the steps of a waterfall",
    endpoints: [stepsApi.columnSteps],
    annotations: READ,
    summary: (r) =>
      `${plural(r.rows, "traced row")}; suggested order ${r.suggestedOrder.join(", ")}, ${r.estimatedCreditsPerFound.suggested ?? "n/a"} credits per value found (now ${r.estimatedCreditsPerFound.current ?? "n/a"}).`,
  },
  {
    name: "preview_http_column",
    title: "Test an HTTP column on one row",
    endpoints: [fillPreviewApi.previewFill],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    summary: (r) =>
      r.error ? `Failed: ${r.error.code}: ${r.error.message}` : `${r.outcome}: "${r.value}" (HTTP ${r.status}).`,
  },
  {
    name: "evaluate_column",
    title: "Evaluate a column on its verified rows",
    description:
      "Regenerates an AI column blind on its verified rows, optionally with other instructions, model or tools, and measures accuracy; charged per row, never changes cells. Poll get_evaluation.",
    endpoints: [quality.evaluateColumn],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    summary: (r) =>
      `Evaluation ${r.id} started on ${plural(r.rows, "row")} (about ${r.estimatedCredits} credits); poll get_evaluation.`,
  },
  {
    name: "get_evaluation",
    title: "Get an evaluation",
    endpoints: [quality.getEvaluation],
    annotations: READ,
    summary: (r) =>
      `Evaluation ${r.id}: ${r.status}; accuracy ${r.accuracy ?? "n/a"} (the column's own: ${r.previousAccuracy ?? "n/a"}) on ${r.counts.correct + r.counts.incorrect} of ${r.counts.rows} rows.`,
  },
  {
    name: "get_run",
    title: "Get a run",
    endpoints: [runs.getRun],
    annotations: READ,
    summary: (r) =>
      `Run ${r.id}: ${r.status}; ${r.counts.done} done, ${r.counts.error} failed, ${r.counts.pending + r.counts.running} to go; ${r.creditsSpent} credits spent.`,
  },
  {
    name: "cancel_run",
    title: "Cancel a run",
    endpoints: [runs.cancelRun],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    summary: (r) =>
      `Run ${r.id}: ${r.status}; ${r.counts.cancelled} cell(s) cancelled, nothing more is charged for them.`,
  },
  {
    name: "configure_base",
    title: "Configure a base by chat (AI assistant)",
    endpoints: [assistant.configureBase],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    summary: (r) => {
      const last = [...r.messages].reverse().find((m: any) => m.role === "assistant");
      const text =
        typeof last?.content === "string"
          ? last.content
          : (last?.content ?? [])
              .filter((p: any) => p.type === "text")
              .map((p: any) => p.text)
              .join(" ");
      return `Base ${r.baseId}: ${text || "done"}`.slice(0, 1_000);
    },
  },
  ...FIND_TOOLS,
  ...HISTORY_TOOLS,
  ...SCHEDULE_TOOLS,
  ...PEOPLE_TOOLS,
  ...SECRETS_TOOLS,
];
