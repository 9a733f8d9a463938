import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";
import { baseParams } from "./common.ts";
import { httpFillSchema } from "../../domain/fill/schema.ts";

// The column editor's "Test on this row" for an HTTP column, before it is saved.

export const previewFill = defineEndpoint({
  method: "POST",
  path: "/api/v1/bases/{baseId}/fill-preview",
  scope: "schema:write",
  summary: "Test an HTTP column on one row",
  description:
    "Sends the HTTP column's request for one row and answers what came back and the value read from it. Nothing is stored or charged; the provider is called (or its cached answer reused).",
  params: baseParams,
  body: z.strictObject({
    fill: httpFillSchema,
    rowId: z.string().min(1).max(100).describe("The row (sr_…) whose values fill the request."),
    type: z.string().max(100).optional().describe("The column type the value is read as; default short-text."),
  }),
  response: z.strictObject({
    outcome: z.enum(["found", "not_found", "error"]).describe("What a cell would end with."),
    value: z.string().describe('The value read from the answer; "" on a miss or an error.'),
    outputs: z
      .record(z.string(), z.string())
      .describe("The other columns the answer would write (the fill's outputs), by column name."),
    url: z.string().nullable().describe("The URL asked, secret values replaced by their names."),
    status: z.number().int().nullable().describe("The provider's HTTP status, when it answered."),
    cached: z.boolean().describe("Whether the answer came from the cache."),
    latencyMs: z.number().int().nullable().describe("How long the call took."),
    credits: z.number().int().min(0).describe("What a cell would be charged for this outcome."),
    answer: z.string().nullable().describe("The answer's text (first 10,000 characters), secret values redacted."),
    error: z
      .strictObject({ code: z.string().describe("A stable code."), message: z.string().describe("What went wrong.") })
      .nullable()
      .describe("Why the call failed, as the cell's error would say."),
  }),
});
