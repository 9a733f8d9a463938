import { z } from "zod";
import { columnOptionsOf, TOOL_NAMES, type ColumnRecord } from "../column-model.ts";
import { DEFAULT_MODEL_SPEC, parseModelSpec, type ProviderName } from "../model-spec.ts";

// What an evaluation regenerates a column with: the column's own instructions, model and tools,
// each optionally overridden, so that a change can be tried on the verified rows first.

export const MAX_EVALUATION_ROWS = 500;
export const DEFAULT_EVALUATION_ROWS = 50;

export const evaluateRequestSchema = z
  .strictObject({
    rowIds: z
      .array(z.string().min(1).max(100))
      .min(1)
      .max(MAX_EVALUATION_ROWS)
      .optional()
      .describe(
        `Verified rows to evaluate on (sr_…), at most ${MAX_EVALUATION_ROWS}; default: the most recently reviewed.`,
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_EVALUATION_ROWS)
      .optional()
      .describe(
        `Without rowIds, how many verified rows to take, 1 to ${MAX_EVALUATION_ROWS} (default ${DEFAULT_EVALUATION_ROWS}).`,
      ),
    instructions: z.string().max(20_000).optional().describe("Instructions to try instead of the column's."),
    model: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('A model to try instead of the column\'s ("provider:model").'),
    tools: z
      .array(z.enum(TOOL_NAMES))
      .max(TOOL_NAMES.length)
      .optional()
      .describe(`Tools to try instead of the column's: ${TOOL_NAMES.join(", ")}.`),
    judgeModel: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(
        "A model that judges long-text answers against the verified value with a fixed rubric; without it long text is compared normalised and exact.",
      ),
    maxCredits: z
      .number()
      .int()
      .min(1)
      .max(1_000_000_000)
      .optional()
      .describe("A credit cap for the evaluation's run."),
  })
  .describe("An evaluation of an AI column on its verified rows, with optional overrides.");

export type EvaluateRequest = z.infer<typeof evaluateRequestSchema>;

export const CHANGEABLE = ["instructions", "model", "tools"] as const;

export interface EvaluationSettings {
  instructions: string;
  /** The model spec the rows were generated with; null: the deployment's default. */
  model: string | null;
  /** The model that default meant when the evaluation ran, as "provider:model". */
  modelLabel: string;
  tools: string[];
  judgeModel: string | null;
  /** Which of the column's settings the evaluation overrode with a different value. */
  changed: (typeof CHANGEABLE)[number][];
}

/**
 * `defaultModel`: the deployment's model (AI_MODEL), for columns that name none; `providers`: the
 * configured ones, which a bare model id is resolved against (the same rule as AI_MODEL's).
 */
export function evaluationSettings(
  column: ColumnRecord,
  req: EvaluateRequest,
  defaultModel: string | undefined,
  providers: readonly ProviderName[],
): EvaluationSettings {
  const own = columnOptionsOf(column).model;
  const ownModel = typeof own === "string" && own.trim() ? own.trim() : null;
  if (req.model !== undefined) parseModelSpec(req.model, providers);
  if (req.judgeModel !== undefined) parseModelSpec(req.judgeModel, providers);
  const settings = {
    instructions: req.instructions ?? column.instructions,
    model: req.model?.trim() ?? ownModel,
    tools: req.tools ? [...new Set(req.tools)] : column.tools,
  };
  const changed = CHANGEABLE.filter((k) =>
    k === "tools"
      ? [...settings.tools].sort().join() !== [...column.tools].sort().join()
      : settings[k] !== (k === "model" ? ownModel : column.instructions),
  );
  const spec = parseModelSpec(settings.model ?? defaultModel ?? DEFAULT_MODEL_SPEC, providers);
  return {
    ...settings,
    modelLabel: `${spec.provider}:${spec.modelId}`,
    judgeModel: req.judgeModel?.trim() ?? null,
    changed,
  };
}

/** The column as the evaluation runs it: its own record with the evaluated settings. */
export function evaluatedColumn(column: ColumnRecord, s: EvaluationSettings): ColumnRecord {
  return {
    ...column,
    instructions: s.instructions,
    tools: s.tools,
    columnOptions: { ...columnOptionsOf(column), model: s.model ?? undefined },
  };
}
