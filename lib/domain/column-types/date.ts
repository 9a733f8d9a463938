import { asText, fail, ok, type ColumnType } from "./types.ts";

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

export const date = {
  name: "date",
  label: "Date",
  normalize(value) {
    const text = asText(value)?.trim();
    if (!text) return fail("Expected a date (YYYY-MM-DD) or an ISO 8601 date-time.");
    const m = DATE_ONLY.exec(text);
    if (m) {
      const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
      const same =
        d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
      return same ? ok(text) : fail("Expected a real calendar date.");
    }
    if (!/^\d{4}-\d{2}-\d{2}T/.test(text)) return fail("Expected a date (YYYY-MM-DD) or an ISO 8601 date-time.");
    const t = Date.parse(text);
    return Number.isNaN(t) ? fail("Expected an ISO 8601 date-time.") : ok(new Date(t).toISOString());
  },
  aiValueHint: () => "A date as YYYY-MM-DD (or an ISO 8601 date-time when a time matters).",
  grid: { align: "left", editor: "date" },
} satisfies ColumnType;
