import { columnType } from "../column-types/index.ts";
import { columnOptionsOf, type ColumnRecord } from "../column-model.ts";

// Whether an evaluated answer matches the verified value, by the column's type. Both sides go
// through the type's own normaliser first (the stored verified value already has), so "1,200"
// and "1200" or "Yes" and "true" compare as the type means them.

/** Numbers agree within this relative tolerance. */
export const NUMBER_TOLERANCE = 0.01;

export function answersMatch(
  column: Pick<ColumnRecord, "type" | "columnOptions">,
  expected: string,
  got: string,
): boolean {
  const type = columnType(column.type);
  const norm = (v: string) => {
    if (v.trim() === "" || !type) return v.trim();
    const n = type.normalize(v, columnOptionsOf(column as ColumnRecord));
    return n.ok ? n.value : v.trim();
  };
  const a = norm(expected);
  const b = norm(got);
  switch (column.type) {
    case "number": {
      const x = Number(a);
      const y = Number(b);
      if (a === "" || b === "" || !Number.isFinite(x) || !Number.isFinite(y)) return a === b;
      return Math.abs(x - y) <= NUMBER_TOLERANCE * Math.max(Math.abs(x), Math.abs(y));
    }
    case "date":
      return a.slice(0, 10) === b.slice(0, 10);
    case "checkbox":
    case "select":
      return a === b;
    case "url":
      return urlKey(a) === urlKey(b);
    case "email":
      return a.toLowerCase() === b.toLowerCase();
    default:
      return textKey(a) === textKey(b);
  }
}

/** Case, whitespace and punctuation do not count; letters and digits of any script do. */
export function textKey(s: string): string {
  return s
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Scheme, "www.", a trailing slash and the fragment do not count. */
function urlKey(s: string): string {
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:/i.test(s) ? s : `https://${s}`);
    let path = u.pathname;
    while (path.endsWith("/")) path = path.slice(0, -1);
    return `${u.hostname.replace(/^www\./, "").toLowerCase()}${path}${u.search}`;
  } catch {
    return s.trim().toLowerCase();
  }
}
