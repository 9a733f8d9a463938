import { z } from "zod";
import { FORMULA_LIMITS } from "../formulas/compile.ts";

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

export const FILL_KINDS = ["formula"] as const;
export type FillKind = (typeof FILL_KINDS)[number];

const fillKinds = z.discriminatedUnion("kind", [formulaFillSchema]);

/** What a client sends: a fill, or null to make the column one entered by hand (or by the AI). */
export const fillSchema = fillKinds
  .nullable()
  .describe(
    `How the column fills itself when it is neither entered by hand nor AI-generated: kind ${FILL_KINDS.join(", ")}. null: by hand or by the AI (isAiEnabled).`,
  );

/** What the column object shows: present only on a column that fills itself, so others keep the spec's fields. */
export const fillViewSchema = fillKinds
  .optional()
  .describe(
    `How the column fills itself (kind ${FILL_KINDS.join(", ")}); absent on columns entered by hand or by the AI.`,
  );

export type Fill = z.infer<typeof formulaFillSchema>;

/** The column's stored fill, or null. */
export function fillOf(c: { fill?: unknown }): Fill | null {
  const parsed = formulaFillSchema.safeParse(c.fill);
  return parsed.success ? parsed.data : null;
}

/** The column's formula expression, or null when it is not a formula column. */
export const formulaOf = (c: { fill?: unknown }): string | null => fillOf(c)?.expression ?? null;
