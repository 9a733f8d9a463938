import { z } from "zod";
import { defineEndpoint, intQuery, pathId } from "../endpoint.ts";
import { baseParams, cursorQuery, isoDate, nullableIsoDate } from "./common.ts";
import { RUN_STATUSES, RUN_TRIGGERS } from "../../domain/runs/states.ts";

// Runs: every request that queued AI cells, with its progress; and its control (cancel, pause,
// resume).

const count = (what: string) => z.number().int().min(0).describe(`Cells of the run ${what}.`);

export const runSchema = z
  .strictObject({
    id: z.string().describe("The run's id (run_…)."),
    baseId: z.string().describe("The base whose cells it runs."),
    trigger: z
      .enum(RUN_TRIGGERS)
      .describe(
        "What started it: add-rows, update-rows, run, import, assistant, evaluation (whose counts are the evaluation's rows), find or schedule.",
      ),
    status: z.enum(RUN_STATUSES).describe("running, paused, done (no cell pending or running) or cancelled."),
    counts: z
      .strictObject({
        pending: count("waiting to run"),
        running: count("running now"),
        done: count("done"),
        error: count("that ended in error"),
        cancelled: count("that were cancelled"),
        skipped: count("skipped by their column's run condition (finished, not charged)"),
        not_found: count("ended not_found: no provider had data (finished, charged what the misses cost)"),
      })
      .describe("Its cells by status; a cell queued again by a later run counts there instead."),
    creditsSpent: z.number().int().min(0).describe("Credits charged for its cells so far."),
    maxCredits: z.number().int().nullable().describe("Its credit cap; null when none."),
    estimatedCredits: z.number().int().min(0).describe("What its cells cost when all are generated."),
    createdAt: isoDate("When it started"),
    finishedAt: nullableIsoDate("When it finished or was cancelled"),
    pausedReason: z
      .enum(["budget", "key_cap", "user"])
      .nullable()
      .describe(
        "Why it is paused: budget (it reached maxCredits), key_cap (the API key that started it spent its daily credit cap) or user; null unless paused.",
      ),
    scheduleId: z
      .string()
      .nullable()
      .describe("The schedule whose execution this run is (sch_…); null when a request started it."),
  })
  .describe("A run: the AI cells one request queued, their progress and cost.");

export const runParams = z.object({ runId: pathId("The run's id (run_…).", "run_not_found") });

export const getRun = defineEndpoint({
  method: "GET",
  path: "/api/v1/runs/{runId}",
  scope: "rows:read",
  summary: "Get a run",
  description: "A run's progress: poll it, or watch run.updated in the base's event stream.",
  params: runParams,
  response: runSchema,
});

export const listRuns = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/runs",
  scope: "rows:read",
  summary: "List runs",
  description: "The base's runs, newest first, a page at a time.",
  params: baseParams,
  query: z.object({
    limit: intQuery("limit", 1, 100, "Page size, 1 to 100 (default 20)."),
    cursor: cursorQuery("runs"),
  }),
  response: z.strictObject({
    runs: z.array(runSchema).describe("The runs, newest first."),
    nextCursor: z.string().nullable().describe("The cursor of the next page; null on the last page."),
  }),
});

export const cancelRun = defineEndpoint({
  method: "POST",
  path: "/api/v1/runs/{runId}/cancel",
  scope: "runs:write",
  audit: { action: "run.cancel", target: "run" },
  summary: "Cancel a run",
  description:
    "Pending cells become cancelled (keeping their previous value) and running ones are aborted; cancelled cells are not charged. 409 run_finished when the run is done.",
  params: runParams,
  bodyType: "optional-json",
  body: z.strictObject({}).describe("No fields."),
  response: runSchema,
});

export const pauseRun = defineEndpoint({
  method: "POST",
  path: "/api/v1/runs/{runId}/pause",
  scope: "runs:write",
  audit: { action: "run.pause", target: "run" },
  summary: "Pause a run",
  description:
    "Stops starting the run's pending cells; running ones finish. 409 run_finished when the run is done or cancelled.",
  params: runParams,
  bodyType: "optional-json",
  body: z.strictObject({}).describe("No fields."),
  response: runSchema,
});

export const resumeRun = defineEndpoint({
  method: "POST",
  path: "/api/v1/runs/{runId}/resume",
  scope: "runs:write",
  audit: { action: "run.resume", target: "run" },
  summary: "Resume a run",
  description:
    "Continues a paused run, optionally with a new credit cap. A run paused by its budget needs a maxCredits that leaves room for another cell (409 run_budget_reached); one paused by its key's daily cap needs the key to have room again (402 key_spend_cap_reached).",
  params: runParams,
  bodyType: "optional-json",
  body: z
    .strictObject({
      maxCredits: z
        .number()
        .int()
        .min(1)
        .max(1_000_000_000)
        .nullable()
        .optional()
        .describe("The new credit cap, 1 to 1,000,000,000; null lifts it."),
    })
    .describe("Optionally, a new credit cap."),
  response: runSchema,
});
