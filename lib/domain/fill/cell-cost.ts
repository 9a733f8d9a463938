import type { ColumnRecord } from "../column-model.ts";
import { fillOf } from "./schema.ts";
import type { HttpCall } from "./http-schema.ts";

// What one cell of a generated column can cost at most, for a run's estimate: an AI cell the
// deployment's cell cost, an HTTP cell what its call declares, a waterfall every step it may run
// (a cached answer and a skipped step cost less, never more).

const callCost = (call: Pick<HttpCall, "credits">) => Math.max(call.credits?.found ?? 1, call.credits?.notFound ?? 0);

export function maxCellCost(column: Pick<ColumnRecord, "fill" | "isAiEnabled">, aiCost: number): number {
  const fill = fillOf(column);
  if (!fill) return column.isAiEnabled ? aiCost : 0;
  if (fill.kind === "formula") return 0;
  if (fill.kind === "http") return callCost(fill);
  let total = 0;
  for (const step of fill.steps) {
    if (step.kind === "http") total += callCost(step);
    else if (step.kind === "tool") total += step.credits ?? 0;
    else if (step.kind === "ai") total += aiCost;
  }
  return total;
}
