import { asText, fail, ok, type ColumnType } from "./types.ts";
import { normalizeHttpUrl } from "./url.ts";

// A file cell holds a URL: an uploaded file's /api/v1/files/... address, or any http(s) URL.
export const file = {
  name: "file",
  label: "File",
  normalize(value) {
    const text = asText(value)?.trim();
    if (!text) return fail("Expected a file URL.");
    if (/^\/api\/v1\/files\/file_[A-Za-z0-9]+$/.test(text)) return ok(text);
    return normalizeHttpUrl(text);
  },
  aiValueHint: () => "One absolute http(s) URL of a file.",
  grid: { align: "left", editor: "file" },
} satisfies ColumnType;
