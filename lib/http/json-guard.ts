import { appError } from "../errors.ts";

// What PostgreSQL cannot store, and what would only be trouble downstream, is refused at the
// edge, naming where it is: a NUL character (text columns refuse it), a lone UTF-16 surrogate
// (not valid Unicode, so not valid UTF-8 either), and nesting deeper than any of our bodies needs
// (deep JSON would overflow the stack of whatever walks it recursively later).

export const MAX_JSON_DEPTH = 32;

/** Why a string cannot be stored as text, or null. */
export const textProblem = (s: string): string | null => {
  if (s.includes("\u0000")) return "contains a NUL character (\\u0000)";
  if (!s.isWellFormed()) return "contains an unpaired UTF-16 surrogate";
  return null;
};

/** Throws 400 validation_failed naming the first bad string (key or value) or the too-deep node. */
export function assertStorableJson(root: unknown): void {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === "string") {
      const problem = textProblem(value);
      if (problem) throw refused(path, `The text ${problem}.`);
    } else if (value !== null && typeof value === "object") {
      if (path.length >= MAX_JSON_DEPTH) throw refused(path, `JSON is nested more than ${MAX_JSON_DEPTH} levels deep here.`);
      const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
      for (const [key, child] of entries) {
        if (typeof key === "string" && textProblem(key)) throw refused([...path, key], `A key ${textProblem(key)}.`);
        stack.push({ value: child, path: [...path, key] });
      }
    }
  }
}

function refused(path: (string | number)[], message: string) {
  const where = path.map((p) => (typeof p === "string" ? p.replace(/[\u0000-\u001f]/g, "?") : p)).join(".");
  return appError("validation_failed", `${message}${where ? ` (at ${where})` : ""}`, { issues: [{ path: where, message }] });
}
