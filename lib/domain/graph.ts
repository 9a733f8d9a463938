// The pure column dependency DAG (inputColumnIds). No I/O: every function takes the columns.

export interface GraphNode {
  id: string;
  inputColumnIds: readonly string[];
}

/** Returns a cycle as a path of ids that starts and ends with the same id, or null. */
export function findCycle(nodes: readonly GraphNode[]): string[] | null {
  const inputs = new Map(nodes.map((n) => [n.id, n.inputColumnIds]));
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
  const inputs = new Map(nodes.map((n) => [n.id, n.inputColumnIds]));
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
    for (const input of n.inputColumnIds) {
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

/** Direct dependents of one column. */
export function directDependents(nodes: readonly GraphNode[], id: string): string[] {
  return nodes.filter((n) => n.inputColumnIds.includes(id)).map((n) => n.id);
}
