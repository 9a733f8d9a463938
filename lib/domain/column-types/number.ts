import { asText, fail, ok, type ColumnType } from "./types.ts";
import { trimChar } from "../../text.ts";

// Unambiguous, so matching is linear in the length: digits, then an optional fraction.
const NUMERIC = /^([+-]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;
// Longer than any finite double can be written; checked before the pattern runs.
const MAX_CHARS = 1_000;

/**
 * The exact decimal a numeric text denotes, in plain notation: no float round trip, so
 * "123456789012345678" stays itself rather than becoming 123456789012345680.
 */
function canonicalDecimal(sign: string, whole: string, fraction: string, exponent: number): string {
  let digits = whole + fraction;
  let point = whole.length + exponent;
  if (point < 0) {
    digits = "0".repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += "0".repeat(point - digits.length);
  const int = trimChar(digits.slice(0, point), "0", "start") || "0";
  const frac = trimChar(digits.slice(point), "0", "end");
  const text = frac ? `${int}.${frac}` : int;
  return sign === "-" && /[1-9]/.test(text) ? `-${text}` : text;
}

export const number = {
  name: "number",
  label: "Number",
  normalize(value) {
    const text = asText(value)?.trim().replace(/_/g, "");
    if (text === undefined || typeof value === "boolean" || text.length > MAX_CHARS) return fail("Expected a number.");
    const m = NUMERIC.exec(text);
    if (!m) return fail("Expected a number.");
    const [, sign, whole = "", fraction = "", onlyFraction = "", exponent = "0"] = m;
    // Past ±400 the plain notation would be longer than any cell needs ("0e99999999").
    if (!Number.isFinite(Number(text)) || Math.abs(Number(exponent)) > 400) return fail("Expected a finite number.");
    return ok(canonicalDecimal(sign, whole || "", onlyFraction || fraction, Number(exponent)));
  },
  aiValueHint: () => "A number only, digits with an optional sign and decimal point, no units or words.",
  grid: { align: "right", editor: "number" },
} satisfies ColumnType;
