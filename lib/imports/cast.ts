import { columnType, selectOptions } from "../domain/column-types/index.ts";

// Typecast, as Airtable's `typecast`: what people type in spreadsheets becomes the column's value.
// Numbers with grouping ("1,234.5", "1.234,5") follow the file's convention, which the first pass
// settles from every value in the file; dates become ISO; yes/no/x become checkboxes; a select
// value that is not an option yet becomes one.

/** The file's conventions, from evidence in all its values (null: no evidence, or conflicting). */
export interface Conventions {
  decimal: "dot" | "comma" | null;
  dateOrder: "mdy" | "dmy" | null;
}

/** Collects the evidence for the conventions during the first pass. */
export class ConventionEvidence {
  private dot = false;
  private comma = false;
  private mdy = false;
  private dmy = false;

  observe(raw: string): void {
    const text = raw.trim();
    const n = GROUPED.exec(text);
    if (n) {
      const lastDot = text.lastIndexOf(".");
      const lastComma = text.lastIndexOf(",");
      if (lastDot !== -1 && lastComma !== -1) {
        if (lastDot > lastComma) this.dot = true;
        else this.comma = true;
      } else if (lastComma !== -1 && !/,\d{3}$/.test(text)) this.comma = true;
      else if (lastDot !== -1 && !/\.\d{3}$/.test(text)) this.dot = true;
      else if (lastComma !== -1 && /^[+-]?\d{1,3}(,\d{3}){2,}$/.test(text)) this.dot = true;
      else if (lastDot !== -1 && /^[+-]?\d{1,3}(\.\d{3}){2,}$/.test(text)) this.comma = true;
    }
    const d = SLASHED.exec(text);
    if (d) {
      if (Number(d[1]) > 12) this.dmy = true;
      if (Number(d[2]) > 12) this.mdy = true;
    }
  }

  settle(): Conventions {
    return {
      decimal: this.dot && this.comma ? null : this.comma ? "comma" : "dot",
      dateOrder: this.mdy && this.dmy ? null : this.dmy ? "dmy" : this.mdy ? "mdy" : null,
    };
  }
}

const GROUPED = /^[+-]?\d[\d.,]*$/;
const SLASHED = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[ T](\d{1,2}:\d{2}(?::\d{2})?))?$/;
const YMD = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/;
const ISO_SPACE = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;
const TRUE_MARKS = new Set(["x", "✓", "✔"]);
const CHECKBOX_WORDS = new Set([
  "true",
  "false",
  "yes",
  "no",
  "y",
  "n",
  "on",
  "off",
  "checked",
  "unchecked",
  "x",
  "✓",
  "✔",
]);

export type Cast = { ok: true; value: string; newOption?: string } | { ok: false; message: string };

/** Casts one raw value into a column of `type`; "" stays "" (no value). */
export function castValue(
  type: string,
  options: Record<string, unknown>,
  raw: string,
  conv: Conventions,
  typecast: boolean,
): Cast {
  const text = raw.trim();
  if (text === "") return { ok: true, value: "" };
  const t = columnType(type)!;
  const direct = t.normalize(typecast ? text : raw, options);
  if (direct.ok || !typecast)
    return direct.ok ? { ok: true, value: direct.value } : { ok: false, message: direct.message };
  const fallback = (): Cast => ({ ok: false, message: direct.message });
  switch (type) {
    case "number": {
      const plain = plainNumber(text, conv);
      if (plain === null) return fallback();
      const again = t.normalize(plain, options);
      return again.ok ? { ok: true, value: again.value } : fallback();
    }
    case "date": {
      const iso = isoDate(text, conv);
      if (iso === null) return fallback();
      const again = t.normalize(iso, options);
      return again.ok ? { ok: true, value: again.value } : fallback();
    }
    case "checkbox":
      return TRUE_MARKS.has(text.toLowerCase()) ? { ok: true, value: "true" } : fallback();
    case "select":
      if (text.length > 200) return fallback();
      return { ok: true, value: text, newOption: text };
    default:
      return fallback();
  }
}

function plainNumber(text: string, conv: Conventions): string | null {
  const compact = text.replace(/[\s\u00a0\u202f']/g, "");
  if (!GROUPED.test(compact) || conv.decimal === null) return null;
  const [group, decimal] = conv.decimal === "dot" ? [",", "."] : [".", ","];
  const parts = compact.split(decimal);
  if (parts.length > 2) return null;
  const [whole, fraction] = parts;
  if (whole.includes(group) && !new RegExp(`^[+-]?\\d{1,3}(\\${group}\\d{3})+$`).test(whole)) return null;
  if (fraction !== undefined && !/^\d+$/.test(fraction)) return null;
  return whole.split(group).join("") + (fraction !== undefined ? `.${fraction}` : "");
}

function isoDate(text: string, conv: Conventions): string | null {
  const space = ISO_SPACE.exec(text);
  if (space) return `${space[1]}T${space[2]}Z`;
  const ymd = YMD.exec(text);
  if (ymd) return `${ymd[1]}-${pad(ymd[2])}-${pad(ymd[3])}`;
  const m = SLASHED.exec(text);
  if (!m) return null;
  const [a, b] = [Number(m[1]), Number(m[2])];
  const order = conv.dateOrder ?? (a > 12 ? "dmy" : b > 12 ? "mdy" : null);
  if (order === null) return null;
  const [month, day] = order === "mdy" ? [a, b] : [b, a];
  const date = `${m[3]}-${pad(month)}-${pad(day)}`;
  return m[4] ? `${date}T${m[4].length === 4 ? "0" : ""}${m[4]}${m[4].split(":").length === 2 ? ":00" : ""}Z` : date;
}

const pad = (s: string | number) => String(s).padStart(2, "0");

/** The candidate types of a new column, narrowed value by value during the first pass. */
export class TypeGuess {
  private candidates = new Set(["number", "checkbox", "date", "email", "url"]);
  private seen = false;

  observe(raw: string, conv: Conventions): void {
    const text = raw.trim();
    if (text === "" || this.candidates.size === 0) return;
    this.seen = true;
    for (const type of [...this.candidates]) {
      if (!fits(type, text, conv)) this.candidates.delete(type);
    }
  }

  /** The first type every value fits, in order of preference; short text otherwise. */
  settle(check: (type: string) => boolean): string {
    if (!this.seen) return "short-text";
    for (const type of ["number", "checkbox", "date", "email", "url"])
      if (this.candidates.has(type) && check(type)) return type;
    return "short-text";
  }
}

function fits(type: string, text: string, conv: Conventions): boolean {
  if (type === "checkbox") return CHECKBOX_WORDS.has(text.toLowerCase());
  // The conventions are not settled yet: a grouped number fits either, the last pass decides.
  if (type === "number") {
    // Leading zeros are an identifier's (a zip code, a phone number), which a number would lose.
    if (/^[+-]?0\d/.test(text)) return false;
    return (
      (GROUPED.test(text.replace(/[\s\u00a0\u202f']/g, "")) && /\d/.test(text)) ||
      castValue(type, {}, text, conv, true).ok
    );
  }
  if (type === "date")
    return castValue(type, {}, text, { ...conv, dateOrder: conv.dateOrder ?? "mdy" }, true).ok || SLASHED.test(text);
  return castValue(type, {}, text, conv, true).ok;
}

/** A select column's options with the new ones added, or null when none are new. */
export function withOptions(options: Record<string, unknown>, added: Iterable<string>): Record<string, unknown> | null {
  const current = selectOptions(options);
  const known = new Set(current.map((o) => o.toLowerCase()));
  const next = [...current];
  for (const o of added) {
    if (known.has(o.toLowerCase())) continue;
    known.add(o.toLowerCase());
    next.push(o);
  }
  return next.length === current.length ? null : { ...options, options: next };
}
