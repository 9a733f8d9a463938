import { CHARS_PER_TOKEN, estimateTokens, truncateToTokens } from "./budget.ts";

// For documents longer than the budget: split into passages, score them against the column
// instructions with BM25, and keep the best ones in document order. The opening passage is
// always kept because it usually names what the document is.

export interface Passage {
  index: number;
  text: string;
}

export interface ScoredPassage extends Passage {
  score: number;
}

const STOPWORDS = new Set(
  (
    "a an and are as at be by for from has have how in is it its of on or that the this to was " +
    "were what when where which who why will with you your their they them do does did not no " +
    "find return give get list write extract based using use from into about than then there"
  ).split(" "),
);

export function tokenize(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 1 && !STOPWORDS.has(t))
    .map(stem);
}

// Enough stemming to match "companies"/"company" and "employees"/"employee"; no more.
function stem(t: string): string {
  if (t.length > 4 && t.endsWith("ies")) return `${t.slice(0, -3)}y`;
  if (t.length > 3 && t.endsWith("s") && !t.endsWith("ss")) return t.slice(0, -1);
  return t;
}

/** Splits on blank lines, packing paragraphs into passages of about targetChars. */
export function chunkText(text: string, targetChars = 1_200): Passage[] {
  const pieces: string[] = [];
  for (const para of text.split(/\n\s*\n/)) {
    const p = para.trim();
    if (!p) continue;
    if (p.length <= targetChars) pieces.push(p);
    else pieces.push(...splitLong(p, targetChars));
  }
  const passages: Passage[] = [];
  let current = "";
  for (const piece of pieces) {
    if (current && current.length + piece.length + 2 > targetChars) {
      passages.push({ index: passages.length, text: current });
      current = "";
    }
    current = current ? `${current}\n\n${piece}` : piece;
  }
  if (current) passages.push({ index: passages.length, text: current });
  return passages;
}

// Long paragraphs split between sentences; only a single over-long sentence is cut mid-way.
function splitLong(p: string, targetChars: number): string[] {
  const out: string[] = [];
  let current = "";
  for (const sentence of p.match(/[^.!?]+(?:[.!?]+["')\]]*\s*|$)/g) ?? [p]) {
    if (current && current.length + sentence.length > targetChars) {
      out.push(current.trim());
      current = "";
    }
    if (sentence.length > targetChars) {
      for (let i = 0; i < sentence.length; i += targetChars) out.push(sentence.slice(i, i + targetChars).trim());
      continue;
    }
    current += sentence;
  }
  if (current.trim()) out.push(current.trim());
  return out.filter(Boolean);
}

/** BM25 (k1 = 1.2, b = 0.75) of each passage against the query, best first. */
export function rankPassages(passages: Passage[], query: string): ScoredPassage[] {
  const terms = [...new Set(tokenize(query))];
  const docs = passages.map((p) => tokenize(p.text));
  const avgLen = docs.reduce((n, d) => n + d.length, 0) / Math.max(1, docs.length);
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);

  const scored = passages.map((p, i) => {
    const tf = new Map<string, number>();
    for (const t of docs[i]) tf.set(t, (tf.get(t) ?? 0) + 1);
    let score = 0;
    for (const term of terms) {
      const f = tf.get(term) ?? 0;
      if (!f) continue;
      const n = df.get(term) ?? 0;
      const idf = Math.log(1 + (passages.length - n + 0.5) / (n + 0.5));
      score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * docs[i].length) / (avgLen || 1)));
    }
    return { ...p, score };
  });
  return scored.sort((a, b) => b.score - a.score || a.index - b.index);
}

export interface Selection {
  text: string;
  truncated: boolean;
}

/** Returns the text whole when it fits the budget, else the passages most relevant to query. */
export function selectRelevant(text: string, query: string, maxTokens: number): Selection {
  if (estimateTokens(text) <= maxTokens) return { text, truncated: false };
  const passages = chunkText(text, Math.min(1_200, Math.max(200, (maxTokens * CHARS_PER_TOKEN) / 4)));
  const ranked = rankPassages(passages, query);
  if (passages.length < 2 || ranked[0].score === 0) return truncateToTokens(text, maxTokens);

  // Leave room for the separators and the closing note.
  const budget = maxTokens * CHARS_PER_TOKEN - 120;
  const chosen = new Set<number>([0]);
  let used = passages[0].text.length;
  for (const p of ranked) {
    if (p.score === 0) break;
    if (chosen.has(p.index) || used + p.text.length + 8 > budget) continue;
    chosen.add(p.index);
    used += p.text.length + 8;
  }
  const order = [...chosen].sort((a, b) => a - b);
  const parts: string[] = [];
  order.forEach((idx, i) => {
    if (i > 0 && idx !== order[i - 1] + 1) parts.push("[…]");
    parts.push(passages[idx].text);
  });
  if (order[order.length - 1] !== passages.length - 1) parts.push("[…]");
  const note =
    `[truncated: showing ${order.length} of ${passages.length} passages, ` +
    `chosen for relevance to the instructions]`;
  const joined = `${parts.join("\n\n")}\n\n${note}`;
  // The first passage alone can exceed a tiny budget; the hard cap still applies.
  return estimateTokens(joined) <= maxTokens ? { text: joined, truncated: true } : truncateToTokens(joined, maxTokens);
}
