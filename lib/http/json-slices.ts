import { runInSlices } from "../slices.ts";

// An answer's JSON text, exactly as JSON.stringify writes it, but with a long array (the 10,000
// rows a write answers with) written a few hundred items at a time, yielding to other requests
// between them: in one go it held the server's thread for 15–60 ms.

const LONG_ARRAY = 500;

/** JSON.stringify(data), in slices when one of the object's own fields is a long array. */
export function jsonInSlices(data: unknown): Promise<string> | string {
  if (data === null || typeof data !== "object" || Array.isArray(data) || "toJSON" in data) return JSON.stringify(data);
  const entries = Object.entries(data);
  if (!entries.some(([, v]) => Array.isArray(v) && v.length > LONG_ARRAY)) return JSON.stringify(data);
  return runInSlices(objectSteps(entries));
}

function* objectSteps(entries: [string, unknown][]): Generator<void, string> {
  const parts: string[] = [];
  for (const [key, value] of entries) {
    // JSON.stringify leaves out the fields it cannot write.
    if (value === undefined || typeof value === "function" || typeof value === "symbol") continue;
    parts.push(`${parts.length > 0 ? "," : ""}${JSON.stringify(key)}:`);
    if (!Array.isArray(value) || value.length <= LONG_ARRAY) {
      parts.push(JSON.stringify(value));
      continue;
    }
    parts.push("[");
    for (let i = 0; i < value.length; i++) {
      // As in an array written by JSON.stringify, what it cannot write becomes null.
      parts.push(`${i > 0 ? "," : ""}${JSON.stringify(value[i]) ?? "null"}`);
      yield;
    }
    parts.push("]");
  }
  return `{${parts.join("")}}`;
}
