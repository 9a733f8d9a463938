import { appError } from "../errors.ts";
import { runInSlices } from "../slices.ts";
import { unstorableTextSteps } from "../text.ts";

// What PostgreSQL cannot store, and what would only be trouble downstream, is refused at the
// edge, naming where it is: a NUL character (text columns refuse it), a lone UTF-16 surrogate
// (not valid Unicode, so not valid UTF-8 either), and nesting deeper than any of our bodies needs
// (deep JSON would overflow the stack of whatever walks it recursively later).

export const MAX_JSON_DEPTH = 32;

/**
 * Throws 400 validation_failed naming the first bad string (key or value) or the too-deep node.
 * In slices: walking a 10,000-row body in one go held the server's thread for 40–140 ms.
 */
export async function assertStorableJson(root: unknown): Promise<void> {
  const bad = await runInSlices(unstorableTextSteps(root, MAX_JSON_DEPTH));
  if (bad) throw refused(bad.path, bad.problem);
}

function refused(path: (string | number)[], message: string) {
  const where = path.map((p) => (typeof p === "string" ? p.replace(/[\u0000-\u001f]/g, "?") : p)).join(".");
  return appError("validation_failed", `${message}${where ? ` (at ${where})` : ""}`, {
    issues: [{ path: where, message }],
  });
}
