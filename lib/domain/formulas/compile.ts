import type jsonataType from "jsonata";
import { appError } from "../../errors.ts";

// Formulas are JSONata expressions over the row, addressed by column name. JSONata is a
// maintained, side-effect-free language with no access to the process, but three of its parts are
// refused here: regular expressions (a pattern chosen by a user runs against every row, and a
// backtracking one can hold the thread), `$eval` (it would parse a string as a new expression,
// past these checks), and the clock and dice (`$now`, `$millis`, `$random`), because a formula is
// deterministic: the same row always gives the same value.

import { FORMULA_LIMITS } from "./limits.ts";

export { FORMULA_LIMITS } from "./limits.ts";

const REFUSED_FUNCTIONS = ["eval", "now", "millis", "random"] as const;

export type JsonataNode = {
  type: string;
  value?: unknown;
  position?: number;
  [key: string]: unknown;
};

export interface CompiledFormula {
  expression: string;
  /** Field names the expression reads: column names, exactly as written. */
  names: ReadonlySet<string>;
  /** `bindings` become $variables (a waterfall's check reads its value as $value). */
  evaluate(input: unknown, bindings?: Record<string, unknown>): Promise<unknown>;
}

const invalid = (message: string, details?: Record<string, unknown>) =>
  appError("invalid_formula", message, { field: "fill.expression", ...details });

// The language loads with the first formula, not with the server: its edge reads the column
// schemas, and a base without formulas never needs it.
let language: Promise<typeof jsonataType> | undefined;
const loadLanguage = () => (language ??= import("jsonata").then((m) => m.default));

// Compiled formulas by expression: an HTTP column reads every answer with the same few expressions,
// and parsing one costs more than evaluating it. Bounded; the oldest goes first.
const compiled = new Map<string, CompiledFormula>();
const MAX_COMPILED = 500;
/** Idle parsed copies kept per formula: one evaluation holds a copy (its hooks are per call). */
const MAX_IDLE_COPIES = 8;

/** Parses and checks a formula; throws invalid_formula with the position of the problem. */
export async function compileFormula(expression: string): Promise<CompiledFormula> {
  const jsonata = await loadLanguage();
  const known = compiled.get(expression);
  if (known) return known;
  if (expression.trim() === "") throw invalid("A formula needs an expression.");
  if (expression.length > FORMULA_LIMITS.chars) {
    throw invalid(`A formula is at most ${FORMULA_LIMITS.chars.toLocaleString("en-US")} characters.`);
  }
  let expr: ReturnType<typeof jsonataType>;
  try {
    expr = jsonata(expression);
  } catch (err) {
    const e = err as { message?: string; position?: number };
    throw invalid(`The formula does not parse: ${e.message ?? "syntax error"}.`, { position: e.position ?? null });
  }
  const names = new Set<string>();
  walk(expr.ast() as JsonataNode, (node) => {
    if (node.type === "regex") {
      throw invalid("Formulas cannot use regular expressions; use $contains, $split or $replace with text.", {
        position: node.position ?? null,
      });
    }
    if (node.type === "variable" && (REFUSED_FUNCTIONS as readonly unknown[]).includes(node.value)) {
      throw invalid(`Formulas cannot use $${String(node.value)}: a formula gives the same value for the same row.`, {
        position: node.position ?? null,
      });
    }
    if (node.type === "name" && typeof node.value === "string") names.add(node.value);
  });
  // The bounds' hooks are set on the parsed expression for each evaluation, so evaluations that
  // overlap (cells run concurrently) each take a copy of their own.
  const idle = [expr];
  const formula: CompiledFormula = {
    expression,
    names,
    async evaluate(input, bindings) {
      const copy = idle.pop() ?? jsonata(expression);
      try {
        return await evaluateBounded(copy, input, bindings);
      } finally {
        if (idle.length < MAX_IDLE_COPIES) idle.push(copy);
      }
    },
  };
  if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
  compiled.set(expression, formula);
  return formula;
}

/** Visits every node of a JSONata syntax tree. */
export function walk(node: unknown, visit: (node: JsonataNode) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  const n = node as JsonataNode;
  if (typeof n.type === "string") visit(n);
  for (const [key, child] of Object.entries(n)) if (key !== "value" || typeof child === "object") walk(child, visit);
}

const ENTRY = Symbol.for("jsonata.__evaluate_entry");
const EXIT = Symbol.for("jsonata.__evaluate_exit");

// JSONata has no time limit of its own; its documented hooks run on entry to and exit from each
// node, so a deep recursion or a long loop stops at the bound. The state is per call, and
// so is the parsed copy the hooks are set on (compileFormula).
async function evaluateBounded(
  expr: ReturnType<typeof jsonataType>,
  input: unknown,
  bindings?: Record<string, unknown>,
): Promise<unknown> {
  const started = performance.now();
  let depth = 0;
  const check = () => {
    if (depth > FORMULA_LIMITS.depth) throw new FormulaLimitError("The formula recursed too deeply.");
    if (performance.now() - started > FORMULA_LIMITS.evaluationMs) {
      throw new FormulaLimitError(`The formula took longer than ${FORMULA_LIMITS.evaluationMs} ms for one row.`);
    }
  };
  type Hook = (expr: unknown, input: unknown, env: { isParallelCall?: boolean }) => void;
  const assign = expr.assign as unknown as (name: symbol, value: Hook) => void;
  assign(ENTRY, (_e, _i, env) => {
    if (env?.isParallelCall) return;
    depth++;
    check();
  });
  assign(EXIT, (_e, _i, env) => {
    if (env?.isParallelCall) return;
    depth--;
    check();
  });
  return expr.evaluate(input, bindings);
}

export class FormulaLimitError extends Error {
  override name = "FormulaLimitError";
}

/**
 * Rewrites a formula after a column rename: every field reference to `from` becomes `to`, in
 * backquotes unless it is a plain identifier. Text in strings is left alone, because only name
 * nodes of the syntax tree are rewritten.
 */
export async function renameInFormula(expression: string, from: string, to: string): Promise<string> {
  const jsonata = await loadLanguage();
  let ast: JsonataNode;
  try {
    ast = jsonata(expression).ast() as JsonataNode;
  } catch {
    return expression;
  }
  const ends: number[] = [];
  walk(ast, (node) => {
    if (node.type === "name" && node.value === from && typeof node.position === "number") ends.push(node.position);
  });
  let out = expression;
  for (const end of ends.sort((a, b) => b - a)) {
    const quoted = out[end - 1] === "`";
    const start = end - from.length - (quoted ? 2 : 0);
    out = out.slice(0, start) + fieldToken(to) + out.slice(end);
  }
  return out;
}

export const fieldToken = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name}\``);
