import { appError, isAppError } from "../../errors.ts";
import type { ColumnRecord } from "../column-model.ts";
import { compileFormula, renameInFormula } from "../formulas/compile.ts";
import { formulaInputs } from "../formulas/resolve.ts";
import { placeholdersOf, renameInRequest, renameInText, scanInto, type Placeholders } from "./placeholders.ts";
import type { Fill } from "./schema.ts";
import type { WaterfallStep } from "./waterfall-schema.ts";

// A fill checked against its base: the columns it reads become the column's inputs, so the DAG
// (order, cycles, readiness, what a change re-runs) follows the fill itself.

const invalid = (field: string, message: string, details: Record<string, unknown> = {}) =>
  appError("invalid_fill", message, { field, ...details });

/** The column ids a fill reads; throws invalid_fill (or invalid_formula) naming the problem. */
export async function fillInputs(
  others: readonly ColumnRecord[],
  fill: Fill,
  selfId: string,
  explicit: readonly string[],
): Promise<string[]> {
  if (fill.kind === "formula") return formulaInputs(others, fill, selfId);
  const names = new Set<string>();
  if (fill.kind === "http") {
    await checkHttp(fill, "fill");
    for (const n of placeholdersOf(fill.request).columns) names.add(n);
  } else {
    for (const [i, step] of fill.steps.entries()) {
      for (const n of await stepColumns(step, `fill.steps[${i}]`)) names.add(n);
    }
  }
  const ids = new Set(explicit);
  for (const name of names) {
    const column = others.find((c) => c.name === name && c.id !== selfId);
    if (!column) {
      throw invalid("fill", `{{${name}}} names no column of this base (names are matched exactly).`, { name });
    }
    ids.add(column.id);
  }
  return [...ids];
}

async function stepColumns(step: WaterfallStep, path: string): Promise<ReadonlySet<string>> {
  if (step.kind === "http") {
    await checkHttp(step, path);
    await checkExpression(step.validate, `${path}.validate`);
    return placeholdersOf(step.request).columns;
  }
  if (step.kind === "tool") {
    await checkExpression(step.extract, `${path}.extract`);
    await checkExpression(step.validate, `${path}.validate`);
    const found: Placeholders = { columns: new Set(), secrets: new Set() };
    for (const v of Object.values(step.input)) scanInto(v, found);
    return found.columns;
  }
  if (step.kind === "formula") {
    await checkExpression(step.validate, `${path}.validate`);
    return (await compileFormula(step.expression)).names;
  }
  await checkExpression(step.validate, `${path}.validate`);
  return new Set();
}

async function checkHttp(call: { extract: string; notFound?: { when?: string } }, path: string) {
  await checkExpression(call.extract, `${path}.extract`);
  await checkExpression(call.notFound?.when, `${path}.notFound.when`);
}

async function checkExpression(expression: string | undefined, field: string) {
  if (expression === undefined) return;
  try {
    await compileFormula(expression);
  } catch (e) {
    if (isAppError(e))
      throw invalid(field, `${field}: ${e.message}`, {
        position: (e.details as { position?: unknown } | undefined)?.position ?? null,
      });
    throw e;
  }
}

/** The fill after a column it names was renamed: its references follow the column. */
export async function renameInFill(fill: Fill, from: string, to: string): Promise<Fill> {
  if (fill.kind === "formula") return { ...fill, expression: await renameInFormula(fill.expression, from, to) };
  if (fill.kind === "http") {
    const outputs =
      fill.outputs && Object.fromEntries(Object.entries(fill.outputs).map(([k, v]) => [k === from ? to : k, v]));
    return { ...fill, request: renameInRequest(fill.request, from, to), ...(outputs ? { outputs } : {}) };
  }
  return {
    ...fill,
    steps: await Promise.all(
      fill.steps.map(async (step) => {
        if (step.kind === "http") return { ...step, request: renameInRequest(step.request, from, to) };
        if (step.kind === "formula") return { ...step, expression: await renameInFormula(step.expression, from, to) };
        if (step.kind === "tool") {
          const input = Object.fromEntries(Object.entries(step.input).map(([k, v]) => [k, renameInText(v, from, to)]));
          return { ...step, input };
        }
        return step;
      }),
    ),
  };
}
