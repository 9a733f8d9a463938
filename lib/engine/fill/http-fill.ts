import type { ColumnRecord } from "../../domain/column-model.ts";
import type { HttpFill } from "../../domain/fill/schema.ts";
import type { CellMetadata, StepTrace } from "../../domain/cell-view.ts";
import { callHttp, type HttpDeps } from "../http/http-call.ts";
import { readOutputs } from "./outputs.ts";

// An HTTP column's cell: one call, read into the value (and its outputs) or a miss.

export interface FillOutcome {
  outcome: "found" | "not_found";
  value: string;
  credits: number;
  metadata: CellMetadata;
  /** Other columns of the row the answer writes (column id → value): an HTTP column's outputs. */
  outputs?: Record<string, string>;
}

export async function runHttpFill(
  fill: HttpFill,
  column: ColumnRecord,
  columns: readonly ColumnRecord[],
  values: Readonly<Record<string, string>>,
  secrets: ReadonlyMap<string, string>,
  deps: HttpDeps,
  signal?: AbortSignal,
): Promise<FillOutcome> {
  const r = await callHttp(fill, column, values, secrets, deps, signal);
  const step: StepTrace = {
    step: 0,
    kind: "http",
    provider: new URL(r.source.url).host,
    status: r.outcome === "found" ? (r.source.cached ? "cached" : "found") : "not_found",
    credits: r.credits,
    ms: r.source.latencyMs,
    url: r.source.url,
    httpStatus: r.source.status,
  };
  const outputs =
    r.outcome === "found" && fill.outputs ? await readOutputs(fill.outputs, r.data, columns, step.provider) : null;
  const unwritten = outputs?.notes.length ? ` Outputs not written: ${outputs.notes.join("; ")}.` : "";
  return {
    outcome: r.outcome,
    value: r.value,
    credits: r.credits,
    outputs: outputs?.values,
    metadata: {
      sources: [`[${step.provider}](${r.source.url})`],
      additionalDetails: describeCall(step, r.source.cached) + unwritten,
      confidenceScore: null,
      steps: [step],
    },
  };
}

export function describeCall(step: StepTrace, cached: boolean): string {
  const what = cached ? "answered from the cache" : `HTTP ${step.httpStatus} in ${step.ms} ms`;
  const cost = `${step.credits} ${step.credits === 1 ? "credit" : "credits"}`;
  return `${step.provider}: ${what}, ${step.status === "not_found" ? "no data" : "found"}, ${cost}.`;
}
