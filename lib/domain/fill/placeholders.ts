import type { HttpCall } from "./http-schema.ts";

// The {{Column name}} and {{secret:NAME}} placeholders of request templates and tool inputs.

// The name is trimmed in code rather than by the pattern: `\s*` beside a lazy name would make the
// pattern backtrack polynomially on long runs of spaces (the ReDoS check refuses it).
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

/** A placeholder's inside: a secret's name after "secret:", else a column's name. */
function parse(inner: string): { secret: boolean; name: string } {
  const text = inner.trim();
  return text.startsWith("secret:") ? { secret: true, name: text.slice(7).trim() } : { secret: false, name: text };
}

/** `text` with each placeholder replaced by what `f` gives for it. */
export const replacePlaceholders = (text: string, f: (p: { secret: boolean; name: string; whole: string }) => string) =>
  text.replace(PLACEHOLDER, (whole, inner: string) => f({ ...parse(inner), whole }));

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
  for (const m of text.matchAll(PLACEHOLDER)) {
    const p = parse(m[1]);
    if (p.name) (p.secret ? found.secrets : found.columns).add(p.name);
  }
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
    replacePlaceholders(text, (p) => (!p.secret && p.name === from ? `{{${to}}}` : p.whole));
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
