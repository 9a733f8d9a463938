import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";
import { baseParams } from "./common.ts";
import { runRequestSchema } from "../../domain/runs/request.ts";

// Run AI cells on request, and estimate what a run would cost. The body is the domain's run
// request, with its limits and descriptions.

export const runCells = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/run",
  scope: "runs:write",
  audit: { action: "run.start", target: "run", optional: true, fields: ["queued"] },
  summary: "Run AI cells",
  description: "(Re)generates the named AI cells: they become pending with an empty value.",
  params: baseParams,
  body: runRequestSchema,
  bodyType: "optional-json",
  status: 202,
  response: z.strictObject({
    runId: z.string().nullable().describe("The run that queued them (run_…); null when no cell was queued."),
    queued: z.number().int().min(0).describe("How many cells were queued."),
  }),
});

export const runEstimateSchema = z
  .strictObject({
    cells: z.number().int().min(0).describe("How many cells the run would generate."),
    credits: z
      .number()
      .min(0)
      .describe(
        "The most they would cost: per cell, the AI cell cost, or what an HTTP column's call or a waterfall's steps declare (cached answers and steps a waterfall never reaches cost less).",
      ),
    balance: z.number().nullable().describe("The workspace's credits; null means unlimited."),
    stale: z
      .number()
      .int()
      .min(0)
      .describe("Of the named cells, how many are stale: generated from inputs or settings that changed since."),
    unchanged: z
      .number()
      .int()
      .min(0)
      .describe("Of the named cells, how many are done and unchanged (regenerated unless onlyStale)."),
    skipped: z.number().int().min(0).describe("How many of those this request skips as unchanged (with onlyStale)."),
  })
  .describe("What a run would do and cost.");

export const estimateRun = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/run/estimate",
  scope: "rows:read",
  summary: "Estimate a run",
  description: "Counts the cells a run request would generate and their cost; changes nothing.",
  params: baseParams,
  body: runRequestSchema,
  bodyType: "optional-json",
  response: runEstimateSchema,
});

export type RunEstimate = z.infer<typeof runEstimateSchema>;
