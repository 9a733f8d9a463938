// Person name → likely mailbox names, most common corporate patterns first. The order is
// what a pattern guess reports as its best candidate.

import { trimChar } from "../../text.ts";

export interface PersonName {
  first: string;
  last?: string;
}

const TITLES = new Set(["mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "dame"]);
const SUFFIXES = new Set(["jr", "sr", "ii", "iii", "iv", "phd", "md", "mba", "esq"]);

/** Folds a name part to mailbox-safe ASCII: "José" → "jose", "O'Brien" → "obrien". */
export function foldNamePart(part: string): string {
  const folded = part
    .replace(/ß/g, "ss")
    .replace(/[æÆ]/g, "ae")
    .replace(/[øØ]/g, "o")
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, "");
  return trimChar(folded, "-");
}

/** Splits "Dr. Ada Lovelace", "Lovelace, Ada" or "Jan van der Berg" into first and last. */
export function splitName(full: string): PersonName | null {
  let text = full.trim();
  const parts = text.split(",");
  // "Lovelace, Ada" (but not "Ada Lovelace, Jr."): the part after the comma is the first name.
  if (parts.length === 2 && parts[0].trim() && parts[1].trim() && !SUFFIXES.has(foldNamePart(parts[1].trim())))
    text = `${parts[1].trim()} ${parts[0].trim()}`;
  const tokens = text
    .split(/\s+/)
    .filter((t) => !TITLES.has(foldNamePart(t)) && !SUFFIXES.has(foldNamePart(t)))
    .map(foldNamePart)
    .filter(Boolean);
  if (tokens.length === 0) return null;
  if (tokens.length === 1) return { first: tokens[0] };
  // Middle names rarely appear in addresses; particles ("van der") belong to the surname.
  const particles = new Set([
    "van",
    "von",
    "der",
    "den",
    "de",
    "da",
    "di",
    "del",
    "la",
    "le",
    "du",
    "dos",
    "bin",
    "al",
  ]);
  let lastStart = tokens.length - 1;
  while (lastStart > 1 && particles.has(tokens[lastStart - 1])) lastStart--;
  return { first: tokens[0], last: tokens.slice(lastStart).join("") };
}

export function candidateLocalParts(name: PersonName): string[] {
  const { first, last } = name;
  if (!last) return [first];
  const f = first[0];
  const l = last[0];
  const parts = [
    `${first}.${last}`,
    `${f}${last}`,
    `${first}`,
    `${first}${last}`,
    `${f}.${last}`,
    `${last}`,
    `${first}_${last}`,
    `${first}-${last}`,
    `${last}.${first}`,
    `${last}${first}`,
    `${last}${f}`,
    `${first}${l}`,
    `${first}.${l}`,
  ];
  return [...new Set(parts)];
}

export function candidateEmails(name: PersonName, domain: string): string[] {
  return candidateLocalParts(name).map((local) => `${local}@${domain}`);
}
