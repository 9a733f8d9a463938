import { appError } from "../errors.ts";
import { unstorableText } from "../text.ts";

// What PostgreSQL cannot store, and what would only be trouble downstream, is refused at the
// edge, naming where it is: a NUL character (text columns refuse it), a lone UTF-16 surrogate
// (not valid Unicode, so not valid UTF-8 either), and nesting deeper than any of our bodies needs
// (deep JSON would overflow the stack of whatever walks it recursively later).

export const MAX_JSON_DEPTH = 32;

/** Throws 400 validation_failed naming the first bad string (key or value) or the too-deep node. */
export function assertStorableJson(root: unknown): void {
  const bad = unstorableText(root, MAX_JSON_DEPTH);
  if (bad) throw refused(bad.path, bad.problem);
}

function refused(path: (string | number)[], message: string) {
  const where = path.map((p) => (typeof p === "string" ? p.replace(/[\u0000-\u001f]/g, "?") : p)).join(".");
  return appError("validation_failed", `${message}${where ? ` (at ${where})` : ""}`, {
    issues: [{ path: where, message }],
  });
}
