import type { Tx } from "../../db/database.ts";
import type { ColumnRecord } from "../column-model.ts";
import { siteDomain } from "../../site-domain.ts";

// Canonical keys: one entity, one key, however it was found. A website's domain names a company
// better than its name does ("Acme GmbH", "ACME", "acme.de" are one), so the domain wins; a
// candidate without one is keyed by its normalised name.

const NAME_NOISE =
  /\b(inc|incorporated|ltd|limited|llc|gmbh|ag|sa|sas|bv|nv|plc|co|corp|corporation|company|the)\b\.?/g;

/** Case, accents, punctuation and legal forms removed: "The Acme Co., Ltd." → "acme". */
export function normalizeName(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .replace(NAME_NOISE, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The key of an entity: "domain:acme.io", else "name:acme"; null when it has neither. */
export function canonicalKey(entity: { name?: string | null; url?: string | null }): string | null {
  const domain = entity.url ? siteDomain(entity.url) : null;
  if (domain) return `domain:${domain}`;
  const name = entity.name ? normalizeName(entity.name) : "";
  return name ? `name:${name}` : null;
}

/** Every key a row answers to: its primary value's name, and the domain of each URL-like value. */
export function rowKeys(values: Readonly<Record<string, string>>, columns: readonly ColumnRecord[]): string[] {
  const keys = new Set<string>();
  for (const c of columns) {
    const value = values[c.id];
    if (!value) continue;
    if (c.isPrimary) {
      const name = normalizeName(value);
      if (name) keys.add(`name:${name}`);
    }
    if (c.isPrimary || c.type === "url" || /web|site|domain|url/i.test(c.name)) {
      const domain = siteDomain(value);
      if (domain) keys.add(`domain:${domain}`);
    }
  }
  return [...keys];
}

/** The keys of every row of a sheet: a find leaves out the entities the base already has. */
export async function existingKeys(tx: Tx, sheetId: string, columns: readonly ColumnRecord[]): Promise<Set<string>> {
  const keys = new Set<string>();
  let after = -1n;
  for (;;) {
    const rows = await tx.$queryRawUnsafe<{ seq: bigint; values: Record<string, string> }[]>(
      `SELECT seq, "values" FROM rows WHERE sheet_id = $1 AND seq > $2 ORDER BY seq LIMIT 5000`,
      sheetId,
      after,
    );
    if (rows.length === 0) return keys;
    for (const r of rows) for (const k of rowKeys(r.values ?? {}, columns)) keys.add(k);
    after = rows[rows.length - 1].seq;
  }
}
