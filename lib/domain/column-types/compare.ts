import type { ColumnOptions, ColumnType } from "./types.ts";
import { trimChar } from "../../text.ts";

// Whether a refreshed value really changed: compared as its column's type reads it, so that
// "1200.0" and "1200", "HTTPS://www.Acme.com/" and "https://acme.com", or a title that only gained
// a space are the same value, and make no history and no cell.changed.

/** The value as compared: typed, then canonical for its type; "" for none. */
export function comparable(type: ColumnType | undefined, options: ColumnOptions, value: string): string {
  if (value === "" || !type) return value;
  const typed = type.normalize(value, options);
  const text = typed.ok ? typed.value : value;
  switch (type.name) {
    case "number":
      return Number.isNaN(Number(text)) ? text : String(Number(text));
    case "url":
      return canonicalUrl(text);
    case "email":
      return text.trim().toLowerCase();
    case "short-text":
    case "long-text":
      return text.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
    default:
      return text;
  }
}

function canonicalUrl(text: string): string {
  try {
    const url = new URL(text);
    const host = url.hostname.toLowerCase().replace(/^www\./, "");
    const path = trimChar(url.pathname, "/", "end");
    return `${host}${url.port ? `:${url.port}` : ""}${path}${url.search}`;
  } catch {
    return text.trim().toLowerCase();
  }
}
