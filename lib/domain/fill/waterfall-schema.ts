import { z } from "zod";
import { TOOL_NAMES } from "../tool-names.ts";
import { FORMULA_LIMITS } from "../formulas/compile.ts";
import { HTTP_LIMITS, httpCallFields } from "./http-schema.ts";

// A waterfall: steps tried in order until one gives a valid value. Each step says what it costs
// and how its value is judged, so a value that fails its check moves on without re-asking.

export const WATERFALL_LIMITS = { steps: 10 } as const;

const validate = z
  .string()
  .min(1)
  .max(HTTP_LIMITS.expressionChars)
  .describe(
    'A JSONata condition on the step\'s value ($value), e.g. $contains($value, "@"); false: invalid, next step.',
  )
  .optional();

const label = z.string().max(100).optional().describe("A name for the step in traces and statistics.");

export const httpStepSchema = z
  .strictObject({
    kind: z.literal("http").describe("http: a request to a data provider."),
    label,
    ...httpCallFields,
    validate,
  })
  .describe("A request to a data provider, read like an HTTP column's.");

export const toolStepSchema = z
  .strictObject({
    kind: z.literal("tool").describe("tool: one of the built-in tools, called directly."),
    label,
    tool: z.enum(TOOL_NAMES).describe(`The tool: ${TOOL_NAMES.join(", ")}.`),
    input: z
      .record(z.string().max(100), z.string().max(2_000))
      .describe(
        'The tool\'s input; values may name columns, e.g. { "name": "{{Full name}}", "domain": "{{Website}}" }.',
      ),
    extract: z
      .string()
      .min(1)
      .max(HTTP_LIMITS.expressionChars)
      .optional()
      .describe("A JSONata expression on the tool's output giving the value; default: its email (or value)."),
    minConfidence: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe("The tool's confidence below which the value is invalid."),
    credits: z
      .number()
      .int()
      .min(0)
      .max(HTTP_LIMITS.maxCredits)
      .optional()
      .describe("Credits the step costs. Default 0."),
    validate,
  })
  .describe("A built-in tool, e.g. email-enrichment's pattern guess.");

export const aiStepSchema = z
  .strictObject({
    kind: z.literal("ai").describe("ai: the model, with the step's instructions and tools."),
    label,
    instructions: z.string().min(1).max(20_000).describe("What the model should produce for the row."),
    tools: z.array(z.enum(TOOL_NAMES)).max(TOOL_NAMES.length).optional().describe("Tools the model may use."),
    model: z.string().max(200).optional().describe('"provider:model"; default AI_MODEL.'),
    minConfidence: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe("The calibrated confidence below which the answer is invalid."),
    validate,
  })
  .describe("The model, asked as an AI column would be; charged as a cell run.");

export const formulaStepSchema = z
  .strictObject({
    kind: z.literal("formula").describe("formula: an expression over the row."),
    label,
    expression: z.string().min(1).max(FORMULA_LIMITS.chars).describe("A JSONata expression over the row."),
    validate,
  })
  .describe("A formula over the row; free.");

export const waterfallStepSchema = z.discriminatedUnion("kind", [
  httpStepSchema,
  toolStepSchema,
  aiStepSchema,
  formulaStepSchema,
]);
export type WaterfallStep = z.infer<typeof waterfallStepSchema>;

export const waterfallFields = {
  steps: z
    .array(waterfallStepSchema)
    .min(1)
    .max(WATERFALL_LIMITS.steps)
    .describe(`The steps, tried in order until one gives a valid value; 1 to ${WATERFALL_LIMITS.steps}.`),
};
