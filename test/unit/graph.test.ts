import { describe, expect, it } from "vitest";
import {
  dependenciesOf,
  directDependents,
  findCycle,
  runIfColumnIds,
  topologicalOrder,
  transitiveDependents,
  type GraphNode,
} from "../../lib/domain/graph.ts";

// The pure dependency DAG of inputColumnIds.

const g = (spec: Record<string, string[]>): GraphNode[] =>
  Object.entries(spec).map(([id, inputColumnIds]) => ({ id, inputColumnIds }));

/** A cycle path is closed (first = last) and each step follows an input edge. */
function expectValidCycle(nodes: GraphNode[], cycle: string[] | null) {
  expect(cycle).not.toBeNull();
  expect(cycle![0]).toBe(cycle!.at(-1));
  const inputs = new Map(nodes.map((n) => [n.id, n.inputColumnIds]));
  for (let i = 0; i < cycle!.length - 1; i++) expect(inputs.get(cycle![i])).toContain(cycle![i + 1]);
}

describe("findCycle", () => {
  it("finds none in an empty graph, a chain, a diamond or a forest", () => {
    expect(findCycle([])).toBeNull();
    expect(findCycle(g({ a: [], b: ["a"], c: ["b"], d: ["c"] }))).toBeNull();
    expect(findCycle(g({ a: [], b: ["a"], c: ["a"], d: ["b", "c"] }))).toBeNull();
    expect(findCycle(g({ a: [], b: [], c: ["a"], d: ["b"] }))).toBeNull();
  });

  it("finds a self-loop", () => {
    const nodes = g({ a: ["a"] });
    expect(findCycle(nodes)).toEqual(["a", "a"]);
  });

  it("finds a two-node loop and a longer loop, as a closed path", () => {
    const two = g({ a: ["b"], b: ["a"] });
    expectValidCycle(two, findCycle(two));
    const long = g({ root: [], a: ["root", "d"], b: ["a"], c: ["b"], d: ["c"] });
    const cycle = findCycle(long);
    expectValidCycle(long, cycle);
    expect(new Set(cycle)).toEqual(new Set(["a", "b", "c", "d"]));
    expect(cycle).not.toContain("root");
  });

  it("ignores inputs that name no node (they cannot close a loop)", () => {
    expect(findCycle(g({ a: ["ghost"], b: ["a", "ghost"] }))).toBeNull();
  });

  it("finds a cycle reachable only from a later node", () => {
    const nodes = g({ x: [], y: ["x"], p: ["q"], q: ["r"], r: ["p"] });
    expectValidCycle(nodes, findCycle(nodes));
  });

  it("handles a long chain without blowing the stack", () => {
    const spec: Record<string, string[]> = { n0: [] };
    for (let i = 1; i < 2_000; i++) spec[`n${i}`] = [`n${i - 1}`];
    expect(findCycle(g(spec))).toBeNull();
    spec.n0 = ["n1999"];
    expect(findCycle(g(spec))).toHaveLength(2_001);
  });
});

describe("topologicalOrder", () => {
  const before = (order: string[], a: string, b: string) => order.indexOf(a) < order.indexOf(b);

  it("puts every column after all of its inputs", () => {
    const nodes = g({ summary: ["site", "name"], score: ["summary"], site: ["name"], name: [], other: [] });
    const order = topologicalOrder(nodes);
    expect(order.sort()).toEqual(["name", "other", "score", "site", "summary"].sort());
    const o = topologicalOrder(nodes);
    expect(nodes).toHaveLength(5);
    for (const n of nodes) for (const input of n.inputColumnIds) expect(before(o, input, n.id)).toBe(true);
  });

  it("keeps the given order for independent columns", () => {
    expect(topologicalOrder(g({ c: [], a: [], b: [] }))).toEqual(["c", "a", "b"]);
  });

  it("lists each node once, and skips unknown inputs", () => {
    const order = topologicalOrder(g({ a: ["ghost"], b: ["a"], c: ["a", "b"] }));
    expect(order).toEqual(["a", "b", "c"]);
  });
});

describe("transitiveDependents and directDependents", () => {
  const nodes = g({ name: [], site: ["name"], summary: ["site"], score: ["summary", "name"], lone: [] });

  it("follows dependents transitively and excludes the starting ids", () => {
    expect(transitiveDependents(nodes, ["name"])).toEqual(new Set(["site", "summary", "score"]));
    expect(transitiveDependents(nodes, ["summary"])).toEqual(new Set(["score"]));
    expect(transitiveDependents(nodes, ["score"])).toEqual(new Set());
    expect(transitiveDependents(nodes, ["site", "summary"])).toEqual(new Set(["score"]));
    expect(transitiveDependents(nodes, [])).toEqual(new Set());
  });

  it("terminates on a cyclic graph", () => {
    expect(transitiveDependents(g({ a: ["b"], b: ["a"], c: ["a"] }), ["a"])).toEqual(new Set(["b", "c"]));
  });

  it("directDependents lists one level", () => {
    expect(directDependents(nodes, "name").sort()).toEqual(["score", "site"]);
    expect(directDependents(nodes, "lone")).toEqual([]);
  });
});

describe("run conditions in the graph", () => {
  const runIf = { and: [{ column: "email", op: "isEmpty" }, { not: { or: [{ column: "tier", status: "error" }] } }] };
  const nodes: GraphNode[] = [
    { id: "email", inputColumnIds: [] },
    { id: "tier", inputColumnIds: ["email"] },
    { id: "found", inputColumnIds: ["site"], runIf },
    { id: "site", inputColumnIds: [] },
  ];

  it("names every column of the tree once, and nothing for no condition", () => {
    expect(runIfColumnIds(runIf)).toEqual(["email", "tier"]);
    expect(runIfColumnIds(null)).toEqual([]);
    expect(dependenciesOf(nodes[2])).toEqual(["site", "email", "tier"]);
    expect(dependenciesOf(nodes[1])).toEqual(["email"]);
  });

  it("counts its columns as dependencies: order, dependents and cycles", () => {
    const order = topologicalOrder(nodes);
    expect(order.indexOf("found")).toBeGreaterThan(order.indexOf("tier"));
    expect(transitiveDependents(nodes, ["email"])).toEqual(new Set(["tier", "found"]));
    expect(directDependents(nodes, "tier")).toEqual(["found"]);
    const cyclic = [...nodes, { id: "email2", inputColumnIds: ["found"] }].map((n) =>
      n.id === "tier" ? { ...n, runIf: { column: "email2", op: "isEmpty" } } : n,
    );
    expect(findCycle(cyclic)).not.toBeNull();
  });
});
