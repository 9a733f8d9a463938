// The pure column dependency DAG (inputColumnIds, and the columns a run condition names). No I/O:
// every function takes the columns.

export interface GraphNode {
  id: string;
  inputColumnIds: readonly string[];
  /** The stored run condition (a filter tree naming columns by id), or null. */
  runIf?: unknown;
  /** The columns whose extra outputs this one reads (fill/outputs.ts): waited for as inputs are. */
  writerColumnIds?: readonly string[];
}

/** The column ids a stored run condition names: every "column" of its tree. */
export function runIfColumnIds(tree: unknown): string[] {
  const ids = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== "object" || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "column" && typeof value === "string") ids.add(value);
      else if (key === "and" || key === "or" || key === "not") walk(value);
    }
  };
  walk(tree);
  return [...ids];
}

/**
 * What a column waits for and is re-planned by: its inputs, the columns its run condition reads
 * (a condition on an AI column is decided once that column's cell is finished), and the columns
 * that write the ones it reads.
 */
export function dependenciesOf(n: GraphNode): readonly string[] {
  const writers = n.writerColumnIds ?? [];
  if ((n.runIf === null || n.runIf === undefined) && writers.length === 0) return n.inputColumnIds;
  return [...new Set([...n.inputColumnIds, ...runIfColumnIds(n.runIf), ...writers])];
}

/** Returns a cycle as a path of ids that starts and ends with the same id, or null. */
export function findCycle(nodes: readonly GraphNode[]): string[] | null {
  const inputs = new Map(nodes.map((n) => [n.id, dependenciesOf(n)]));
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];

  const visit = (id: string): string[] | null => {
    const s = state.get(id);
    if (s === "done") return null;
    if (s === "visiting") return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, "visiting");
    stack.push(id);
    for (const next of inputs.get(id) ?? []) {
      if (!inputs.has(next)) continue;
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(id, "done");
    return null;
  };

  for (const n of nodes) {
    const cycle = visit(n.id);
    if (cycle) return cycle;
  }
  return null;
}

/** Ids in an order where every column comes after all of its inputs. Assumes no cycle. */
export function topologicalOrder(nodes: readonly GraphNode[]): string[] {
  const inputs = new Map(nodes.map((n) => [n.id, dependenciesOf(n)]));
  const seen = new Set<string>();
  const order: string[] = [];
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const dep of inputs.get(id) ?? []) if (inputs.has(dep)) visit(dep);
    order.push(id);
  };
  for (const n of nodes) visit(n.id);
  return order;
}

/** Every column that depends on any of `ids`, directly or transitively (excluding `ids`). */
export function transitiveDependents(nodes: readonly GraphNode[], ids: Iterable<string>): Set<string> {
  const dependents = new Map<string, string[]>();
  for (const n of nodes) {
    for (const input of dependenciesOf(n)) {
      const list = dependents.get(input) ?? [];
      list.push(n.id);
      dependents.set(input, list);
    }
  }
  const start = new Set(ids);
  const result = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const d of dependents.get(id) ?? []) {
      if (!result.has(d) && !start.has(d)) {
        result.add(d);
        queue.push(d);
      }
    }
  }
  return result;
}

/** Direct dependents of one column (by input or run condition). */
export function directDependents(nodes: readonly GraphNode[], id: string): string[] {
  return nodes.filter((n) => dependenciesOf(n).includes(id)).map((n) => n.id);
}
