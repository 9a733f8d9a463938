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
export const storableText = (s: string): string => (s.includes("\u0000") ? s.replaceAll("\u0000", "") : s).toWellFormed();

/** storableText applied to every string (keys too) of a JSON-like value. */
export function storableJson<T>(value: T): T {
  if (typeof value === "string") return storableText(value) as T;
  if (Array.isArray(value)) return value.map(storableJson) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableText(k), storableJson(v)])) as T;
  }
  return value;
}
