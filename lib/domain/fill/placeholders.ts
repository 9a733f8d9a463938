import type { HttpCall } from "./http-schema.ts";

// The {{Column name}} and {{secret:NAME}} placeholders of request templates and tool inputs.

export const PLACEHOLDER = /\{\{\s*(secret:)?([^{}]+?)\s*\}\}/g;

export interface Placeholders {
  columns: Set<string>;
  secrets: Set<string>;
}

/** Every placeholder of a request: the columns and secrets it names. */
export function placeholdersOf(request: HttpCall["request"]): Placeholders {
  const found: Placeholders = { columns: new Set(), secrets: new Set() };
  const scan = (text: string) => scanInto(text, found);
  scan(request.url);
  for (const [k, v] of Object.entries(request.headers ?? {})) scan(`${k}${v}`);
  eachString(request.body, scan);
  return found;
}

export function scanInto(text: string, found: Placeholders): Placeholders {
  for (const m of text.matchAll(PLACEHOLDER)) (m[1] ? found.secrets : found.columns).add(m[2]);
  return found;
}

/** The same value with `f` applied to every string in it (a JSON body's strings). */
export function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === "string") return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = mapStrings(v, f);
    return out;
  }
  return value;
}

function eachString(value: unknown, f: (s: string) => void): void {
  mapStrings(value, (s) => {
    f(s);
    return s;
  });
}

/** A request with every {{from}} column placeholder renamed to {{to}}. */
export function renameInRequest(request: HttpCall["request"], from: string, to: string): HttpCall["request"] {
  const swap = (text: string) =>
    text.replace(PLACEHOLDER, (whole, secret: string | undefined, name: string) =>
      !secret && name === from ? `{{${to}}}` : whole,
    );
  return {
    ...request,
    url: swap(request.url),
    ...(request.headers
      ? { headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, swap(v)])) }
      : {}),
    ...(request.body !== undefined ? { body: mapStrings(request.body, swap) } : {}),
  };
}

export const renameInText = (text: string, from: string, to: string) =>
  renameInRequest({ method: "GET", url: text }, from, to).url;
