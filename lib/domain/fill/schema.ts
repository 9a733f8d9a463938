import { z } from "zod";
import { FORMULA_LIMITS } from "../formulas/limits.ts";
import { HTTP_LIMITS, httpCallFields } from "./http-schema.ts";
import { waterfallFields } from "./waterfall-schema.ts";

// How a column is filled, when it is not by hand or by the AI: one field, `fill`, whose `kind`
// names the way. The schema here drives validation, OpenAPI, MCP and the UI's types.

export const formulaFillSchema = z
  .strictObject({
    kind: z.literal("formula").describe("formula: computed from the row by an expression."),
    expression: z
      .string()
      .max(FORMULA_LIMITS.chars)
      .describe(
        'A JSONata expression over the row, naming columns as fields (`Work email` in backquotes when the name is not a plain word), e.g. $substringAfter(Email, "@") or Price * Quantity. No regular expressions, $eval, $now, $millis or $random.',
      ),
  })
  .describe("A formula column: computed from the row whenever the columns it names change; no credits, no queue.");

export const httpFillSchema = z
  .strictObject({
    kind: z.literal("http").describe("http: a request to a data provider for each row."),
    ...httpCallFields,
    outputs: z
      .record(z.string().min(1).max(100), z.string().min(1).max(HTTP_LIMITS.expressionChars))
      .refine((o) => Object.keys(o).length <= HTTP_LIMITS.outputs, `At most ${HTTP_LIMITS.outputs} outputs.`)
      .optional()
      .describe(
        'Other columns of the row this answer also writes: column name → a JSONata expression on the answer, e.g. { "Industry": "data.industry" }. Written when the cell is found; the columns must be entered by hand, each written by one column at most. Columns that read them wait for this one.',
      ),
  })
  .describe("An HTTP column: a request for each row, its answer read into the value; a miss ends not_found.");

export const waterfallFillSchema = z
  .strictObject({ kind: z.literal("waterfall").describe("waterfall: steps tried in order."), ...waterfallFields })
  .describe("A waterfall column: steps tried in order, stopping at the first valid value.");

import { FILL_KINDS } from "./kinds.ts";

export { FILL_KINDS, type FillKind, isGenerated } from "./kinds.ts";

const fillKinds = z.discriminatedUnion("kind", [formulaFillSchema, httpFillSchema, waterfallFillSchema]);

/** What a client sends: a fill, or null to make the column one entered by hand (or by the AI). */
export const fillSchema = fillKinds
  .nullable()
  .describe(
    `How the column fills itself when it is neither entered by hand nor AI-generated: kind ${FILL_KINDS.join(", ")}. null: by hand or by the AI (isAiEnabled).`,
  );

/** What the column object shows: null on columns entered by hand or by the AI. */
export const fillViewSchema = fillKinds
  .nullable()
  .describe(`How the column fills itself (kind ${FILL_KINDS.join(", ")}); null when by hand or by the AI.`);

export type Fill = z.infer<typeof fillKinds>;
export type HttpFill = z.infer<typeof httpFillSchema>;
export type WaterfallFill = z.infer<typeof waterfallFillSchema>;

/** The column's stored fill, or null. */
export function fillOf(c: { fill?: unknown }): Fill | null {
  const parsed = fillKinds.safeParse(c.fill);
  return parsed.success ? parsed.data : null;
}

/** The column's formula expression, or null when it is not a formula column. */
export function formulaOf(c: { fill?: unknown }): string | null {
  const fill = fillOf(c);
  return fill?.kind === "formula" ? fill.expression : null;
}
