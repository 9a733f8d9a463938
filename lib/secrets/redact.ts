// What a request that carried secrets sends back to people (an HTTP column's error, a response
// kept for debugging) passes through here, so a value echoed by a server is never stored or shown.

/**
 * Replaces every occurrence of each value, as it is and URL-encoded (as a request's URL carries
 * it), with `[secret:NAME]`. Longer values go first, so a value that contains another is replaced
 * whole; empty values are skipped (they would match everywhere).
 */
export function redactSecrets(text: string, values: ReadonlyMap<string, string>): string {
  const entries = [...values].filter(([, v]) => v.length >= 1).sort(([, a], [, b]) => b.length - a.length);
  let out = text;
  for (const [name, value] of entries) {
    for (const form of new Set([value, encodeURIComponent(value)])) out = out.split(form).join(`[secret:${name}]`);
  }
  return out;
}
