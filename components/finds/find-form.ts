import { FIND_LIMITS } from "@/lib/domain/finds/schemas.ts";
import type { FindBody, FindCandidate, FindView } from "../data/finds";

// The Find rows form without React: its fields, what it sends, and criteria suggested from the
// query. The assistant has no call that answers with a list, so the suggestion is a heuristic
// over the query's phrases (place, head count, business model, the rest of its noun phrase).

export interface FindForm {
  query: string;
  criteria: string[];
  count: string;
  maxCredits: string;
  includeUnclear: boolean;
}

export const emptyFindForm = (): FindForm => ({
  query: "",
  criteria: [""],
  count: "10",
  maxCredits: "",
  includeUnclear: false,
});

const wholeNumber = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text) : null);

/** The request the form makes, or what is wrong with it. */
export function findBody(form: FindForm, preview: boolean): { body: FindBody } | { error: string } {
  const query = form.query.trim();
  const criteria = form.criteria.map((c) => c.trim()).filter(Boolean);
  const count = wholeNumber(form.count);
  if (!query) return { error: "Describe what to find." };
  if (query.length > FIND_LIMITS.queryChars)
    return { error: `Keep the query under ${FIND_LIMITS.queryChars} characters.` };
  if (criteria.length === 0) return { error: "Add at least one criterion." };
  if (criteria.length > FIND_LIMITS.criteria) return { error: `At most ${FIND_LIMITS.criteria} criteria.` };
  if (criteria.some((c) => c.length > FIND_LIMITS.criterionChars))
    return { error: `Keep each criterion under ${FIND_LIMITS.criterionChars} characters.` };
  if (count === null || count < 1 || count > FIND_LIMITS.maxCount)
    return { error: `Rows to find: a whole number from 1 to ${FIND_LIMITS.maxCount}.` };
  const cap = form.maxCredits.trim() === "" ? undefined : wholeNumber(form.maxCredits);
  if (cap === null || cap === 0) return { error: "Credit cap: a whole number above zero, or empty for none." };
  return {
    body: {
      query,
      criteria,
      count,
      includeUnclear: form.includeUnclear,
      preview,
      ...(cap === undefined ? {} : { maxCredits: cap }),
    },
  };
}

const PLACE = /\b(?:based in|located in|headquartered in|in)\s+((?:[A-Z][\p{L}'-]*)(?:\s+[A-Z][\p{L}'-]*)*)/u;
// The query's spaces are collapsed to one first, and a number is matched from its first digit only:
// both keep the patterns linear (test/unit/redos.test.ts).
const HEADCOUNT =
  /((?<![\d,.])\d[\d,.]* ?(?:–|-|to) ?\d[\d,.]*|(?:more than|over|under) \d[\d,.]*) (employees|people|staff)/i;
const MODEL = /\b(B2B|B2C|D2C)\b/i;
/** Words that name what a row is, not a property of it. */
const ENTITY_WORDS =
  /\b(companies|company|firms?|businesses|startups?|organi[sz]ations?|agencies|vendors|providers)\b/gi;
const JOINERS = / ?(?:[,;]|\b(?:with|that|which|who|and)\b) ?/i;

/** Criteria a query implies, each short and checkable on a company's own pages. */
export function suggestCriteria(query: string): string[] {
  let rest = ` ${query.trim().replace(/\s+/g, " ")} `;
  const out: string[] = [];
  const take = (re: RegExp, make: (m: RegExpExecArray) => string) => {
    const m = re.exec(rest);
    if (!m) return;
    out.push(make(m));
    rest = rest.replace(m[0], " ");
  };
  take(PLACE, (m) => `Based in ${m[1]}`);
  take(HEADCOUNT, (m) => `${m[1].replace(/ ?(?:-|to) ?/, "–")} ${m[2].toLowerCase()}`);
  take(MODEL, (m) => `Sells ${m[1].toUpperCase()}`);
  const phrases = rest
    .replace(ENTITY_WORDS, " ")
    .split(JOINERS)
    .map((p) =>
      p
        .replace(/\s+/g, " ")
        .replace(/^(?:a|an|the|of|for)\s+/i, "")
        .trim(),
    )
    .filter((p) => /\p{L}{3,}/u.test(p));
  for (const p of phrases) out.push(/^(is|are|has|have|sells?|makes?|offers?|uses?)\b/i.test(p) ? p : `Works in ${p}`);
  const unique = [...new Set(out.map((c) => c.slice(0, FIND_LIMITS.criterionChars)))];
  return unique.slice(0, FIND_LIMITS.criteria);
}

/** Why a candidate is not a row, in one line; null for a match. */
export function candidateReason(c: FindCandidate, criteria: FindView["criteria"]): string | null {
  const text = (id: string) => criteria.find((k) => k.id === id)?.text ?? id;
  if (c.status === "excluded") return "Already in the base.";
  if (c.status === "error") return c.error?.message ?? "Its pages could not be read.";
  if (c.status !== "rejected" && c.status !== "unclear") return null;
  const failing = c.verdicts.filter((v) => v.satisfied === (c.status === "rejected" ? "no" : "unclear"));
  return failing.map((v) => `${text(v.criterionId)}: ${v.reasoning}`).join(" ") || null;
}
