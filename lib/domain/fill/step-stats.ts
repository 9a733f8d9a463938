import type { Tx } from "../../db/database.ts";
import { appError } from "../../errors.ts";
import { loadBase } from "../base-context.ts";
import type { Fill } from "./schema.ts";
import { suggestOrder, type ObservedStep } from "./step-order.ts";
import type { WaterfallStep } from "./waterfall-schema.ts";

// What each step of an HTTP or waterfall column did over the column's history, from the step
// traces its finished cells keep (metadata.steps), and the order of the steps that would have
// spent the fewest credits per value found (step-order.ts). History is matched to the current
// steps by position: after the steps are reordered, a position's history is its former step's.

/** Cells whose trace is final: a cell still queued or running has none yet, a cancelled one a partial one. */
const FINISHED = ["done", "not_found", "error"];

interface StepRow {
  step: number;
  calls: number;
  found: number;
  cached: number;
  invalid: number;
  errors: number;
  credits: number;
  p50: number | null;
}

/** The host, tool or model a step asks, as its traces name it. */
export function stepProvider(step: WaterfallStep): string {
  if (step.kind === "http") return URL.canParse(step.request.url) ? new URL(step.request.url).host : "http";
  if (step.kind === "tool") return step.tool;
  if (step.kind === "ai") return step.model ?? "ai";
  return "formula";
}

const rate = (n: number, calls: number) => (calls > 0 ? n / calls : null);

export async function columnStepStats(tx: Tx, workspaceId: string, baseId: string, columnId: string) {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const column = await tx.column.findFirst({ where: { id: columnId, sheetId: baseCtx.sheetId } });
  if (!column) throw appError("column_not_found", `No column "${columnId}" in this base.`);
  const fill = column.fill as Fill | null;
  if (fill?.kind !== "http" && fill?.kind !== "waterfall") {
    throw appError("no_steps", `"${column.name}" is not an HTTP or waterfall column; only their cells trace steps.`);
  }
  const steps: WaterfallStep[] = fill.kind === "http" ? [{ ...fill, kind: "http" }] : fill.steps;

  // Guards on every field read: a trace is written by the engine, but one bad entry must not
  // turn the whole answer into a cast error.
  const traced = `FROM cells c WHERE c.column_id = $1 AND c.sheet_id = $2 AND c.status = ANY($3::text[])
      AND jsonb_typeof(c.metadata->'steps') = 'array'`;
  const ran = `s->>'status' <> 'skipped'`;
  const num = (field: string) => `CASE WHEN jsonb_typeof(s->'${field}') = 'number' THEN (s->>'${field}')::float8 END`;
  const rows = await tx.$queryRawUnsafe<StepRow[]>(
    `SELECT (s->>'step')::int AS step,
            count(*) FILTER (WHERE ${ran})::int AS calls,
            count(*) FILTER (WHERE s->>'status' IN ('found', 'cached'))::int AS found,
            count(*) FILTER (WHERE s->>'status' = 'cached')::int AS cached,
            count(*) FILTER (WHERE s->>'status' = 'invalid')::int AS invalid,
            count(*) FILTER (WHERE s->>'status' = 'error')::int AS errors,
            COALESCE(sum(${num("credits")}) FILTER (WHERE ${ran}), 0)::float8 AS credits,
            (percentile_cont(0.5) WITHIN GROUP (ORDER BY ${num("ms")}) FILTER (WHERE ${ran}))::float8 AS p50
       FROM (SELECT c.metadata ${traced}) t
       CROSS JOIN LATERAL jsonb_array_elements(t.metadata->'steps') s
      WHERE CASE WHEN jsonb_typeof(s) = 'object' AND jsonb_typeof(s->'step') = 'number' AND (s->>'step') ~ '^[0-9]{1,2}$'
                 THEN (s->>'step')::int < $4::int ELSE false END
      GROUP BY 1`,
    column.id,
    baseCtx.sheetId,
    FINISHED,
    steps.length,
  );
  const [{ n }] = await tx.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n ${traced}`,
    column.id,
    baseCtx.sheetId,
    FINISHED,
  );

  const byStep = new Map(rows.map((r) => [r.step, r]));
  const stats = steps.map((step, i) => {
    const r = byStep.get(i) ?? { calls: 0, found: 0, cached: 0, invalid: 0, errors: 0, credits: 0, p50: null };
    return {
      step: i,
      kind: step.kind,
      label: step.label ?? null,
      provider: stepProvider(step),
      calls: r.calls,
      found: r.found,
      hitRate: rate(r.found, r.calls),
      invalidRate: rate(r.invalid, r.calls),
      errorRate: rate(r.errors, r.calls),
      cachedRate: rate(r.cached, r.calls),
      credits: r.credits,
      creditsPerFound: r.found > 0 ? r.credits / r.found : null,
      p50Ms: r.calls > 0 ? r.p50 : null,
    };
  });
  const observed: ObservedStep[] = stats.map((s) => ({
    calls: s.calls,
    found: s.found,
    credits: s.credits,
    pinned: s.kind === "ai",
  }));
  const estimate = suggestOrder(observed);
  return {
    columnId: column.id,
    kind: fill.kind,
    rows: n,
    steps: stats,
    suggestedOrder: estimate.order,
    estimatedCreditsPerFound: { current: estimate.current, suggested: estimate.suggested },
    estimatedSaving: estimate.saving,
    method: estimate.method,
  };
}
