import { asText, fail, ok, type ColumnType } from "./types.ts";

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export const number = {
  name: "number",
  label: "Number",
  normalize(value) {
    const text = asText(value)?.trim().replace(/_/g, "");
    if (text === undefined || typeof value === "boolean" || !NUMERIC.test(text)) return fail("Expected a number.");
    const n = Number(text);
    return Number.isFinite(n) ? ok(String(n)) : fail("Expected a finite number.");
  },
  aiValueHint: () => "A number only, digits with an optional sign and decimal point, no units or words.",
  grid: { align: "right", editor: "number" },
} satisfies ColumnType;
