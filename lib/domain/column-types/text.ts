import { asText, fail, ok, type ColumnType } from "./types.ts";

function normalizeText(value: unknown) {
  const text = asText(value);
  return text === null ? fail("Expected text.") : ok(text);
}

export const shortText = {
  name: "short-text",
  label: "Short text",
  normalize: normalizeText,
  aiValueHint: () => "A short plain-text value, a few words or one line.",
  grid: { align: "left", editor: "text" },
} satisfies ColumnType;

export const longText = {
  name: "long-text",
  label: "Long text",
  normalize: normalizeText,
  aiValueHint: () => "Plain text; it may be several sentences or paragraphs.",
  grid: { align: "left", editor: "textarea" },
} satisfies ColumnType;
