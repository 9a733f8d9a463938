import type { Runtime } from "../../runtime.ts";
import { appError } from "../../errors.ts";
import type { AttemptRecord } from "../../domain/cells/index.ts";
import { calibrationOf, type ColumnRecord } from "../../domain/column-model.ts";
import { calibrate } from "../../domain/isotonic.ts";
import type { HttpFill, WaterfallFill } from "../../domain/fill/schema.ts";
import { placeholdersOf } from "../../domain/fill/placeholders.ts";
import { readSecretValues } from "../../secrets/index.ts";
import { getTool, toolLimitsFromConfig } from "../../tools/index.ts";
import type { AskDeps } from "../ask-column.ts";
import type { CellContext } from "../cell-context.ts";
import type { HttpDeps } from "../http/http-call.ts";
import { runHttpFill, type FillOutcome } from "./http-fill.ts";
import { runWaterfall, type WaterfallDeps } from "./waterfall.ts";

// The attempt of an HTTP or waterfall cell: its secrets read, its steps run, and what it found (or
// that nothing was found) with what it cost, for the engine to store like a model's answer.

export interface FillAnswer extends FillOutcome {
  attempt: AttemptRecord;
}

export async function answerByFill(
  rt: Runtime,
  deps: { http: HttpDeps; ask: AskDeps },
  context: CellContext,
  fill: HttpFill | WaterfallFill,
  signal: AbortSignal,
): Promise<FillAnswer> {
  const started = performance.now();
  const secrets = await readSecretValues(rt.db.prisma, rt.secrets, context.baseCtx.workspaceId, secretNames(fill));
  const attempt: AttemptRecord = { provider: fill.kind, model: "", inputTokens: 0, outputTokens: 0, latencyMs: 0 };
  const outcome =
    fill.kind === "http"
      ? await runHttpFill(fill, context.column, context.columns, byName(context), secrets, deps.http, signal)
      : await runWaterfall(
          fill,
          context.column,
          context.values,
          waterfallDeps(rt, deps, context, secrets, attempt),
          signal,
        );
  attempt.model = [...new Set((outcome.metadata.steps ?? []).map((s) => s.provider))].join(", ").slice(0, 200);
  attempt.latencyMs = Math.round(performance.now() - started);
  return { ...outcome, attempt };
}

const byName = (context: CellContext) =>
  Object.fromEntries(context.columns.map((c) => [c.name, context.values[c.id] ?? ""]));

/** Every secret a fill's requests name, read once per attempt (tool steps take none). */
function secretNames(fill: HttpFill | WaterfallFill): string[] {
  const requests =
    fill.kind === "http" ? [fill.request] : fill.steps.flatMap((s) => (s.kind === "http" ? [s.request] : []));
  return [...new Set(requests.flatMap((r) => [...placeholdersOf(r).secrets]))];
}

function waterfallDeps(
  rt: Runtime,
  deps: { http: HttpDeps; ask: AskDeps },
  context: CellContext,
  secrets: ReadonlyMap<string, string>,
  attempt: AttemptRecord,
): WaterfallDeps {
  const fit = calibrationOf(context.column);
  return {
    http: deps.http,
    secrets,
    columns: context.columns,
    aiCredits: rt.config.credits.cellCost,
    calibrate: (score) => (fit ? calibrate(fit, score) : score),
    async askAi(step, signal) {
      const { askColumn, startAsking } = await import("../ask-column.ts");
      // The step is asked as an AI column with its own instructions, tools and model would be.
      const column: ColumnRecord = {
        ...context.column,
        isAiEnabled: true,
        fill: null,
        instructions: step.instructions,
        tools: step.tools ?? [],
        columnOptions: { ...(context.column.columnOptions as object), model: step.model },
      };
      const asking = startAsking(rt, column, context.callsSpent);
      const question = {
        baseName: context.baseCtx.name,
        workspaceId: context.baseCtx.workspaceId,
        column,
        columns: context.columns,
        values: context.values,
        examples: [],
      };
      try {
        const checked = await askColumn(rt, deps.ask, question, asking, signal ?? new AbortController().signal);
        if (!checked.ok)
          throw appError("invalid_output", `The model's answer did not fit the column: ${checked.problem}`);
        return {
          value: checked.value,
          metadata: checked.metadata,
          provider: `${asking.model.provider}:${asking.model.modelId}`,
        };
      } finally {
        attempt.inputTokens += asking.attempt.inputTokens;
        attempt.outputTokens += asking.attempt.outputTokens;
        attempt.modelCalls = (attempt.modelCalls ?? 0) + (asking.attempt.modelCalls ?? 0);
      }
    },
    async runTool(step, input, signal) {
      const tool = getTool(step.tool);
      const configured = tool.isConfigured(rt.config);
      if (!configured.ok) throw appError("tool_not_configured", configured.message);
      const parsed = tool.inputSchema.safeParse(input);
      if (!parsed.success) throw appError("invalid_value", `The ${step.tool} step's input is not valid for this row.`);
      const result = await tool.execute(parsed.data, {
        config: rt.config,
        limits: toolLimitsFromConfig(rt.config),
        instructions: "",
        inputs: input,
        signal,
        workspaceId: context.baseCtx.workspaceId,
        ...deps.ask.tools,
      });
      return result.output;
    },
  };
}
