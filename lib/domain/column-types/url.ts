import { asText, fail, ok, type ColumnType } from "./types.ts";

/** Accepts http(s) URLs and bare domains ("acme.com" becomes "https://acme.com"). */
export function normalizeHttpUrl(value: unknown) {
  const text = asText(value)?.trim();
  if (!text || /\s/.test(text)) return fail("Expected an http(s) URL.");
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  try {
    const url = new URL(candidate);
    if (url.protocol !== "http:" && url.protocol !== "https:") return fail("Only http and https URLs are allowed.");
    // Judge the host as written: WHATWG parsing turns "42" into 0.0.0.42, which has dots.
    const host = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(candidate)?.[1] ?? "";
    if (!host.includes(".") && host.toLowerCase() !== "localhost" && !host.startsWith("[")) {
      return fail("Expected an http(s) URL with a domain.");
    }
    return ok(candidate);
  } catch {
    return fail("Expected an http(s) URL.");
  }
}

export const url = {
  name: "url",
  label: "URL",
  normalize: normalizeHttpUrl,
  aiValueHint: () => "One absolute http(s) URL and nothing else.",
  grid: { align: "left", editor: "url" },
} satisfies ColumnType;
