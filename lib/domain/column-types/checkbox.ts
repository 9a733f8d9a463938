import { fail, ok, type ColumnType } from "./types.ts";

const TRUE = new Set(["true", "1", "yes", "y", "on", "checked"]);
const FALSE = new Set(["false", "0", "no", "n", "off", "unchecked"]);

export const checkbox = {
  name: "checkbox",
  label: "Checkbox",
  normalize(value) {
    const text = String(value).trim().toLowerCase();
    if (typeof value === "boolean" || typeof value === "number" || typeof value === "string") {
      if (TRUE.has(text)) return ok("true");
      if (FALSE.has(text)) return ok("false");
    }
    return fail("Expected true or false.");
  },
  aiValueHint: () => 'Exactly "true" or "false".',
  grid: { align: "center", editor: "checkbox" },
} satisfies ColumnType;
