// Small text helpers written as loops where the obvious regular expression would backtrack
// (each is linear in the length of its input, whatever the input).

/** Removes every leading and/or trailing occurrence of one character. */
export function trimChar(s: string, ch: string, side: "start" | "end" | "both" = "both"): string {
  let start = 0;
  let end = s.length;
  if (side !== "end") while (start < end && s[start] === ch) start++;
  if (side !== "start") while (end > start && s[end - 1] === ch) end--;
  return s.slice(start, end);
}

/** Drops every `open`…`close` span; an unclosed `open` and what follows it are dropped too. */
export function stripBetween(s: string, open: string, close: string): string {
  let out = "";
  let from = 0;
  for (;;) {
    const start = s.indexOf(open, from);
    if (start === -1) return out + s.slice(from);
    out += s.slice(from, start);
    const end = s.indexOf(close, start + open.length);
    if (end === -1) return out;
    from = end + close.length;
  }
}

/** Drops <…> tags. */
export const stripTags = (s: string) => stripBetween(s, "<", ">");

/** Removes spaces and tabs at the end of every line. */
export const trimLineEnds = (s: string) =>
  s
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n");

/**
 * Text that PostgreSQL can store and every JSON encoder can carry: NUL characters removed,
 * unpaired UTF-16 surrogates replaced. Content from the web passes through here before it is
 * stored or put in a prompt.
 */
export const storableText = (s: string): string =>
  (s.includes("\u0000") ? s.replaceAll("\u0000", "") : s).toWellFormed();

/** storableText applied to every string (keys too) of a JSON-like value. */
export function storableJson<T>(value: T): T {
  if (typeof value === "string") return storableText(value) as T;
  if (Array.isArray(value)) return value.map(storableJson) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableText(k), storableJson(v)])) as T;
  }
  return value;
}

/** Why a string cannot be stored as text (PostgreSQL refuses NUL; a lone surrogate is not Unicode), or null. */
export const textProblem = (s: string): string | null => {
  if (s.includes("\u0000")) return "contains a NUL character (\\u0000)";
  if (!s.isWellFormed()) return "contains an unpaired UTF-16 surrogate";
  return null;
};

/**
 * The first string (key or value) of a JSON-like value that cannot be stored, or the first node
 * nested deeper than `maxDepth`, with where it is. Iterative, so depth cannot overflow the stack.
 */
export function unstorableText(root: unknown, maxDepth = Infinity): Unstorable | null {
  const steps = unstorableTextSteps(root, maxDepth);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export interface Unstorable {
  path: (string | number)[];
  problem: string;
}

interface JsonNode {
  value: unknown;
  depth: number;
  key?: string | number;
  parent?: JsonNode;
}

const pathOf = (node: JsonNode): (string | number)[] => {
  const path: (string | number)[] = [];
  for (let n: JsonNode | undefined = node; n?.parent; n = n.parent) path.push(n.key!);
  return path.reverse();
};

/**
 * unstorableText's walk, one node a step, so that a large body can be walked in slices
 * (lib/slices.ts). Each node links to its parent: a path is built only for the one reported.
 */
export function* unstorableTextSteps(root: unknown, maxDepth = Infinity): Generator<void, Unstorable | null> {
  const stack: JsonNode[] = [{ value: root, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { value } = node;
    if (typeof value === "string") {
      const problem = textProblem(value);
      if (problem) return { path: pathOf(node), problem: `The text ${problem}.` };
    } else if (value !== null && typeof value === "object") {
      if (node.depth >= maxDepth)
        return { path: pathOf(node), problem: `JSON is nested more than ${maxDepth} levels deep here.` };
      for (const [key, child] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
        const problem = typeof key === "string" ? textProblem(key) : null;
        if (problem) return { path: [...pathOf(node), key], problem: `A key ${problem}.` };
        stack.push({ value: child, depth: node.depth + 1, key, parent: node });
      }
    }
    yield;
  }
  return null;
}
