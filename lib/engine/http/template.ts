import { createHash } from "node:crypto";
import { appError } from "../../errors.ts";
import type { HttpCall } from "../../domain/fill/http-schema.ts";
import { mapStrings, replacePlaceholders } from "../../domain/fill/placeholders.ts";
import { redactSecrets } from "../../secrets/index.ts";

// A column's request template, resolved for one row. Values from the row are data: URL-encoded in
// the URL, JSON-encoded in the body, and refused in a header when they would break its line.
// Secret values are placed only here, on the way out; everything kept afterwards (the source, the
// cache key, errors) carries their names or hashes instead.

export interface ResolvedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The URL with every secret value replaced by its name: what a source and a log may show. */
  safeUrl: string;
  /** sha256 of the resolved request; secret values enter it only hashed. */
  cacheKey: string;
  /** The secret values this request carries, by name, for redacting anything derived from the call. */
  secretValues: Map<string, string>;
}

/**
 * Resolves the template for one row. `values` are the row's values by column name; a column with
 * no value is "". Throws invalid_request when the result is not a request that can be sent.
 */
export function resolveRequest(
  request: HttpCall["request"],
  values: Readonly<Record<string, string>>,
  secrets: ReadonlyMap<string, string>,
): ResolvedRequest {
  const used = new Map<string, string>();
  const fill = (text: string, encode: (v: string) => string) =>
    replacePlaceholders(text, ({ secret, name }) => {
      if (!secret) return encode(values[name] ?? "");
      const value = secrets.get(name);
      if (value === undefined) throw appError("secret_not_found", `No workspace secret is named ${name}.`, { name });
      used.set(name, value);
      return encode(value);
    });

  const url = fill(request.url, encodeURIComponent);
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (!parsed || !/^https?:$/.test(parsed.protocol)) {
    throw appError("request_invalid", "The request's URL is not an http(s) URL once the row's values are in.");
  }
  const headers: Record<string, string> = {};
  for (const [name, raw] of Object.entries(request.headers ?? {})) {
    const value = fill(raw, (v) => v);
    // A value from the row must not start a header of its own.
    if (/[\r\n\0]/.test(value)) {
      throw appError("request_invalid", `The header ${name} would hold a line break once the row's values are in.`);
    }
    headers[name.toLowerCase()] = value;
  }
  let body: string | undefined;
  if (request.body !== undefined && request.method !== "GET") {
    body = JSON.stringify(mapStrings(request.body, (s) => fill(s, (v) => v)));
    headers["content-type"] ??= "application/json";
  }
  headers.accept ??= "application/json";

  // The key is a hash of the request as sent: secret values enter it, but only hashed.
  const canonical = JSON.stringify([
    request.method,
    parsed.href,
    Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : 1)),
    body ?? null,
  ]);
  return {
    method: request.method,
    url: parsed.href,
    headers,
    ...(body !== undefined ? { body } : {}),
    safeUrl: redactSecrets(parsed.href, used),
    cacheKey: createHash("sha256").update(canonical).digest("hex"),
    secretValues: used,
  };
}
