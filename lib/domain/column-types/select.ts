import { asText, fail, ok, type ColumnOptions, type ColumnType } from "./types.ts";

export function selectOptions(options: ColumnOptions): string[] {
  return Array.isArray(options.options) ? options.options.filter((o): o is string => typeof o === "string") : [];
}

export const select = {
  name: "select",
  label: "Single select",
  normalize(value, options) {
    const text = asText(value)?.trim();
    const choices = selectOptions(options);
    const match = text === undefined ? undefined : choices.find((c) => c.toLowerCase() === text.toLowerCase());
    return match ? ok(match) : fail(`Expected one of: ${choices.join(", ") || "(no options defined)"}.`);
  },
  validateOptions(options) {
    const raw = options.options;
    if (!Array.isArray(raw) || raw.length === 0)
      return "A select column needs columnOptions.options, a non-empty list of strings.";
    if (raw.some((o) => typeof o !== "string" || o.trim() === "" || o.length > 200))
      return "Select options must be non-empty strings of at most 200 characters.";
    if (new Set(raw.map((o: string) => o.toLowerCase())).size !== raw.length) return "Select options must be unique.";
    return null;
  },
  aiValueHint: (options) =>
    `Exactly one of these options: ${selectOptions(options)
      .map((o) => JSON.stringify(o))
      .join(", ")}.`,
  grid: { align: "left", editor: "select" },
} satisfies ColumnType;
