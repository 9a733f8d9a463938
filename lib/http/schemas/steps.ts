import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";
import { columnParams } from "./columns.ts";

// Step statistics of an HTTP or waterfall column: what each step did over the column's history,
// and the order of the steps that would spend the fewest credits per value found.

const share = (what: string) => z.number().min(0).max(1).nullable().describe(what);
const steps = z.array(z.number().int().min(0)).describe("Step indexes (0-based) in the order given.");

const stepSchema = z
  .strictObject({
    step: z.number().int().min(0).describe("The step's index in the column's current steps (0-based)."),
    kind: z.enum(["http", "tool", "ai", "formula"]).describe("The step's kind."),
    label: z.string().nullable().describe("The step's label; null when it has none."),
    provider: z.string().describe("The host, tool or model it asks, as the traces name it."),
    calls: z.number().int().min(0).describe("Times the step ran (its trace status was not skipped)."),
    found: z.number().int().min(0).describe("Times it gave the value (found or cached)."),
    hitRate: share("found / calls; null before it ran."),
    invalidRate: share("Answers its check refused / calls."),
    errorRate: share("Calls that failed / calls."),
    cachedRate: share("Values served from the answer cache / calls."),
    credits: z.number().min(0).describe("Credits it charged, in all."),
    creditsPerFound: z.number().min(0).nullable().describe("credits / found; null when it never found a value."),
    p50Ms: z.number().min(0).nullable().describe("The median duration of its calls in ms; null before it ran."),
  })
  .describe("One step of the column's current configuration, matched to its history by position.");

export const columnSteps = defineEndpoint({
  method: "GET",
  path: "/api/v1/bases/{baseId}/columns/{columnId}/steps",
  scope: "rows:read",
  summary: "Get a column's step statistics",
  description:
    "What each step of an HTTP or waterfall column did over its finished cells' step traces (calls, hit rate, invalid and error rates, credits, median time), and the order of the steps estimated to spend the fewest credits per value found. Other columns: 409 no_steps.",
  params: columnParams,
  response: z.strictObject({
    columnId: z.string().describe("The column."),
    kind: z.enum(["http", "waterfall"]).describe("The column's kind of fill."),
    rows: z.number().int().min(0).describe("Finished cells with a step trace: what the figures rest on."),
    steps: z.array(stepSchema).describe("The column's steps in their current order."),
    suggestedOrder: steps.describe(
      "The steps in the order estimated cheapest per value found; the current order when none is cheaper. AI steps keep their places.",
    ),
    estimatedCreditsPerFound: z
      .strictObject({
        current: z.number().min(0).nullable().describe("For the current order; null when no step found a value."),
        suggested: z.number().min(0).nullable().describe("For the suggested order."),
      })
      .describe("Expected credits per value found, from each step's hit rate and mean credits per call."),
    estimatedSaving: share("1 − suggested / current; 0 when the current order is the cheapest; null when unknown."),
    method: z
      .enum(["exhaustive", "ratio"])
      .describe("exhaustive: every order compared; ratio: more than 8 steps move, sorted by credits per hit."),
  }),
});
