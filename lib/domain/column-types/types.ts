export type ColumnOptions = Record<string, unknown>;

export type Normalized = { ok: true; value: string } | { ok: false; message: string };

/**
 * One interface for every column type: it validates and normalises what is written to a cell,
 * validates its own options, tells the model what a valid answer looks like, and gives the
 * grid what it needs to render and edit it.
 */
export interface ColumnType {
  name: string;
  label: string;
  /** Normalises a non-empty input; "" is handled by the caller (it always means "no value"). */
  normalize(value: unknown, options: ColumnOptions): Normalized;
  /** Returns a problem with the type's own options, or null. */
  validateOptions?(options: ColumnOptions): string | null;
  /** One sentence for the model about the value it must return. */
  aiValueHint(options: ColumnOptions): string;
  grid: {
    align: "left" | "right" | "center";
    editor: "text" | "textarea" | "number" | "url" | "checkbox" | "select" | "date" | "file";
  };
}

export const ok = (value: string): Normalized => ({ ok: true, value });
export const fail = (message: string): Normalized => ({ ok: false, message });

/** Numbers and booleans are accepted where text is expected; objects are not. */
export function asText(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return String(value);
  return null;
}
