import { appError, isAppError } from "../../errors.ts";
import type { ColumnRecord } from "../../domain/column-model.ts";
import type { CellMetadata, StepTrace } from "../../domain/cell-view.ts";
import type { WaterfallFill } from "../../domain/fill/schema.ts";
import { stepProvider } from "../../domain/fill/step-stats.ts";
import type { WaterfallStep } from "../../domain/fill/waterfall-schema.ts";
import { compileFormula } from "../../domain/formulas/compile.ts";
import { cellValueOf } from "../../domain/formulas/cell-value.ts";
import { formulaInput } from "../../domain/formulas/row-formulas.ts";
import { replacePlaceholders } from "../../domain/fill/placeholders.ts";
import { callHttp, type HttpDeps } from "../http/http-call.ts";
import type { FillOutcome } from "./http-fill.ts";

// A waterfall's cell: its steps in order until one gives a valid value. A step that misses, or
// whose value fails its check, hands over to the next without being asked again; the steps after
// the winner never run and cost nothing. The cell is not_found when no step found a valid value,
// and an error only when every step that ran failed.

type Step<K extends WaterfallStep["kind"]> = Extract<WaterfallStep, { kind: K }>;

export interface AiAnswer {
  value: string;
  metadata: CellMetadata;
  /** "provider:model". */
  provider: string;
}

export interface WaterfallDeps {
  http: HttpDeps;
  secrets: ReadonlyMap<string, string>;
  columns: readonly ColumnRecord[];
  /** Asks the model as the column's AI would be asked, with the step's instructions, tools and model. */
  askAi(step: Step<"ai">, signal?: AbortSignal): Promise<AiAnswer>;
  /** Calls a built-in tool with its resolved input; returns its output. */
  runTool(step: Step<"tool">, input: Record<string, string>, signal?: AbortSignal): Promise<unknown>;
  /** What an AI step costs: a cell run. */
  aiCredits: number;
  /** The column's calibration applied to a model's confidence (identity when the column has none). */
  calibrate(score: number): number;
}

interface StepResult {
  status: "found" | "cached" | "not_found";
  value: string;
  credits: number;
  provider: string;
  url?: string;
  httpStatus?: number;
  confidence?: number | null;
  metadata?: CellMetadata;
}

export async function runWaterfall(
  fill: WaterfallFill,
  column: ColumnRecord,
  values: Readonly<Record<string, string>>,
  deps: WaterfallDeps,
  signal?: AbortSignal,
): Promise<FillOutcome> {
  const byName = Object.fromEntries(deps.columns.map((c) => [c.name, values[c.id] ?? ""]));
  const steps: StepTrace[] = [];
  const errors: unknown[] = [];
  let winner: { result: StepResult; index: number } | null = null;
  for (const [index, step] of fill.steps.entries()) {
    const base = { step: index, kind: step.kind, ...(step.label ? { label: step.label } : {}) };
    if (winner) {
      steps.push({ ...base, provider: stepProvider(step), status: "skipped", credits: 0, ms: 0 });
      continue;
    }
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    try {
      const result = await runStep(step, column, values, byName, deps, signal);
      const found = result.status !== "not_found";
      const valid = found && (await passes(step, result));
      steps.push({
        ...base,
        provider: result.provider,
        status: found && !valid ? "invalid" : result.status,
        credits: result.credits,
        ms: ms(),
        ...(result.url ? { url: result.url } : {}),
        ...(result.httpStatus ? { httpStatus: result.httpStatus } : {}),
      });
      if (valid) winner = { result, index };
    } catch (e) {
      if (signal?.aborted) throw e;
      errors.push(e);
      const { code, message } = isAppError(e) ? e : { code: "internal_error", message: "The step failed." };
      steps.push({
        ...base,
        provider: stepProvider(step),
        status: "error",
        credits: 0,
        ms: ms(),
        error: { code, message },
      });
    }
  }
  const credits = steps.reduce((sum, s) => sum + s.credits, 0);
  const ran = steps.filter((s) => s.status !== "skipped");
  if (!winner && ran.length > 0 && ran.every((s) => s.status === "error")) throw lastError(errors);
  const metadata: CellMetadata = winner
    ? {
        sources:
          winner.result.metadata?.sources ??
          (winner.result.url ? [`[${winner.result.provider}](${winner.result.url})`] : null),
        confidenceScore: winner.result.metadata?.confidenceScore ?? null,
        additionalDetails: `Found by step ${winner.index + 1} of ${fill.steps.length} (${stepName(fill.steps[winner.index], winner.result.provider)}).`,
        ...(winner.result.metadata?.excerpts ? { excerpts: winner.result.metadata.excerpts } : {}),
        steps,
      }
    : {
        sources: null,
        confidenceScore: null,
        additionalDetails: `No step found a valid value (${ran.length} of ${fill.steps.length} ran).`,
        steps,
      };
  return { outcome: winner ? "found" : "not_found", value: winner?.result.value ?? "", credits, metadata };
}

async function runStep(
  step: WaterfallStep,
  column: ColumnRecord,
  values: Readonly<Record<string, string>>,
  byName: Readonly<Record<string, string>>,
  deps: WaterfallDeps,
  signal?: AbortSignal,
): Promise<StepResult> {
  if (step.kind === "http") {
    const r = await callHttp(step, column, byName, deps.secrets, deps.http, signal);
    const status = r.outcome === "not_found" ? "not_found" : r.source.cached ? "cached" : "found";
    const host = new URL(r.source.url).host;
    return {
      status,
      value: r.value,
      credits: r.credits,
      provider: host,
      url: r.source.url,
      httpStatus: r.source.status,
    };
  }
  if (step.kind === "formula") {
    const formula = await compileFormula(step.expression);
    const byColumnName = new Map(deps.columns.map((c) => [c.name, c]));
    const value = cellValueOf(await formula.evaluate(formulaInput(formula, byColumnName, values)), column) ?? "";
    return { status: value ? "found" : "not_found", value, credits: 0, provider: "formula" };
  }
  if (step.kind === "tool") {
    const input = Object.fromEntries(
      Object.entries(step.input).map(([k, v]) => [
        k,
        replacePlaceholders(v, (p) => (p.secret ? "" : (byName[p.name] ?? ""))),
      ]),
    );
    const output = (await deps.runTool(step, input, signal)) as { confidence?: unknown };
    const extracted = await (await compileFormula(step.extract ?? "email ? email : value")).evaluate(output);
    const value = cellValueOf(extracted, column) ?? "";
    const confidence = typeof output?.confidence === "number" ? output.confidence : null;
    return {
      status: value ? "found" : "not_found",
      value,
      credits: step.credits ?? 0,
      provider: step.tool,
      confidence,
    };
  }
  const answer = await deps.askAi(step, signal);
  const score = answer.metadata.confidenceScore;
  return {
    status: answer.value ? "found" : "not_found",
    value: answer.value,
    credits: deps.aiCredits,
    provider: answer.provider,
    confidence: typeof score === "number" ? deps.calibrate(score) : null,
    metadata: answer.metadata,
  };
}

/** The step's checks: its minimum confidence and its validate expression on $value. */
async function passes(step: WaterfallStep, result: StepResult): Promise<boolean> {
  const min = step.kind === "ai" || step.kind === "tool" ? step.minConfidence : undefined;
  if (min !== undefined && (result.confidence ?? 0) < min) return false;
  if (!step.validate) return true;
  try {
    const verdict = await (await compileFormula(step.validate)).evaluate({}, { value: result.value });
    return verdict !== undefined && verdict !== null && verdict !== false && verdict !== "" && verdict !== 0;
  } catch {
    return false;
  }
}

const stepName = (step: WaterfallStep, provider: string) => step.label ?? provider;

/** Every step that ran failed: the cell fails with the last error, retryable if any was. */
function lastError(errors: unknown[]): unknown {
  const last = errors.at(-1);
  const retryable = errors.some((e) => isAppError(e) && (e.details as { retryable?: boolean } | undefined)?.retryable);
  if (!isAppError(last)) return last;
  return appError(last.code, last.message, { ...((last.details as object) ?? {}), retryable });
}
