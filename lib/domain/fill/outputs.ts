import { appError, isAppError } from "../../errors.ts";
import { runIfColumnIds } from "../graph.ts";
import { compileFormula } from "../formulas/compile.ts";
import { isGenerated } from "./kinds.ts";
import { fillOf, type Fill } from "./schema.ts";

// An HTTP column's extra outputs: other columns of the row its answer also writes. A column that
// reads one of them (directly, or through formulas) waits for the writer's cell as it waits for an
// input, and so does a column reading a formula over a generated column: the writers it reads are
// stored with it (writer_column_ids), for the queue's readiness test and the DAG alike.

type Node = {
  id: string;
  name: string;
  fill?: unknown;
  isAiEnabled: boolean;
  inputColumnIds: readonly string[];
  runIf?: unknown;
};

const invalid = (field: string, message: string) => appError("invalid_fill", message, { field });

/** The column names a fill writes beside its own value. */
export function outputNamesOf(c: { fill?: unknown }): string[] {
  const fill = fillOf(c);
  return fill?.kind === "http" && fill.outputs ? Object.keys(fill.outputs) : [];
}

/** Checks a fill's outputs against the base; throws invalid_fill naming the output at fault. */
export async function checkOutputs(others: readonly Node[], fill: Fill, selfId: string): Promise<void> {
  if (fill.kind !== "http" || !fill.outputs) return;
  for (const [name, expression] of Object.entries(fill.outputs)) {
    const field = `fill.outputs.${name}`;
    const target = others.find((c) => c.name === name && c.id !== selfId);
    if (!target) throw invalid(field, `Output "${name}" names no other column of this base (names match exactly).`);
    if (isGenerated(target) || target.fill)
      throw invalid(field, `"${name}" fills itself; outputs write columns entered by hand.`);
    const writer = others.find((c) => c.id !== selfId && outputNamesOf(c).includes(name));
    if (writer) throw invalid(field, `"${name}" is already written by column "${writer.name}".`);
    try {
      await compileFormula(expression);
    } catch (e) {
      if (isAppError(e)) throw invalid(field, `${field}: ${e.message}`);
      throw e;
    }
  }
}

/**
 * For each column, the generated columns whose cells write what it reads beyond its own inputs:
 * writers of the columns it reads as outputs, and the generated columns behind the formulas it
 * reads (a formula has no cell to wait for, so its reader waits for the cells it is computed
 * from). A column may appear among its own writers: that is a cycle, for findCycle to report.
 */
export function writerEdges(columns: readonly Node[]): Map<string, string[]> {
  const byId = new Map(columns.map((c) => [c.id, c]));
  const writerOf = new Map<string, string>();
  for (const c of columns)
    for (const name of outputNamesOf(c)) {
      const target = columns.find((t) => t.name === name);
      if (target) writerOf.set(target.id, c.id);
    }
  const edges = new Map<string, string[]>();
  for (const c of columns) {
    const writers = new Set<string>();
    const seen = new Set<string>();
    const walk = (node: Node) => {
      for (const id of [...node.inputColumnIds, ...runIfColumnIds(node.runIf)]) {
        if (seen.has(id)) continue;
        seen.add(id);
        const writer = writerOf.get(id);
        if (writer) writers.add(writer);
        const read = byId.get(id);
        if (!read || fillOf(read)?.kind !== "formula") continue;
        for (const behind of read.inputColumnIds) if (isGenerated(byId.get(behind) ?? NONE)) writers.add(behind);
        walk(read);
      }
    };
    walk(c);
    if (writers.size > 0) edges.set(c.id, [...writers]);
  }
  return edges;
}

const NONE = { isAiEnabled: false, fill: null };
