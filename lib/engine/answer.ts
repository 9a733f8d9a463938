import { z } from "zod";
import { columnType } from "../domain/column-types/index.ts";
import { columnOptionsOf, type ColumnRecord } from "../domain/column-model.ts";
import type { CellMetadata } from "../domain/cell-view.ts";

/**
 * What the model must return for a cell. Lenient on purpose: models in tool or text mode often
 * omit empty fields or send 42 for "42". (The provider layer sends a schema with optional fields
 * as non-strict, which every server accepts.)
 */
export const cellAnswerSchema = z.object({
  value: z.union([z.string(), z.number(), z.boolean()]).transform(String),
  sources: z.array(z.string()).nullish(),
  confidenceScore: z.number().nullish(),
  additionalDetails: z.string().nullish(),
});

export type CellAnswer = z.infer<typeof cellAnswerSchema>;

export interface RetrievedDocument {
  url: string;
  title: string;
  excerpt: string;
}

export type CheckedAnswer = { ok: true; value: string; metadata: CellMetadata } | { ok: false; problem: string };

function urlKey(u: string): string {
  try {
    const url = new URL(u.trim());
    url.hash = "";
    return url.toString().replace(/\/$/, "");
  } catch {
    return u.trim();
  }
}

/** "[title](url)" or a bare URL, to the URL. */
function citedUrl(source: string): string {
  const text = source.trim();
  const open = text.lastIndexOf("](");
  if (open === -1 || !text.endsWith(")")) return text;
  const url = text.slice(open + 2, -1);
  return url && !/\s/.test(url) ? url : text;
}

/**
 * Checks the model's answer against the column type and grounds its sources: only documents the
 * cell's own tool calls retrieved may be cited; anything else is dropped.
 */
export function checkAnswer(
  column: ColumnRecord,
  answer: CellAnswer,
  documents: readonly RetrievedDocument[],
): CheckedAnswer {
  const raw = answer.value.trim();
  let value = "";
  if (raw !== "") {
    const normalized = columnType(column.type)!.normalize(raw, columnOptionsOf(column));
    if (!normalized.ok)
      return {
        ok: false,
        problem: `value ${JSON.stringify(raw.slice(0, 200))} is not valid for a ${column.type} column: ${normalized.message}`,
      };
    value = normalized.value;
  }
  const byUrl = new Map(documents.map((d) => [urlKey(d.url), d]));
  const cited = new Map<string, RetrievedDocument>();
  for (const s of answer.sources ?? []) {
    const doc = byUrl.get(urlKey(citedUrl(s)));
    if (doc) cited.set(urlKey(doc.url), doc);
  }
  const sources = [...cited.values()];
  const score = answer.confidenceScore;
  return {
    ok: true,
    value,
    metadata: {
      // Spec §2: null when no sources are available, with or without tools.
      sources: sources.length > 0 ? sources.map((d) => `[${d.title.replace(/[[\]]/g, "") || d.url}](${d.url})`) : null,
      confidenceScore: typeof score === "number" && Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : null,
      additionalDetails: answer.additionalDetails?.trim() || null,
      ...(sources.length > 0
        ? { excerpts: Object.fromEntries(sources.map((d) => [d.url, d.excerpt.slice(0, 1_000)])) }
        : {}),
    },
  };
}
