import { appError } from "../../errors.ts";
import {
  type ClaimedCandidate,
  type FindJob,
  FIND_LIMITS,
  type CriterionVerdict,
  type VerifiedCandidate,
} from "../../domain/finds/index.ts";
import { scrapeUrlTool } from "../../tools/scrape-url.ts";
import { searchPage } from "../../tools/web-search.ts";
import type { ToolContext } from "../../tools/types.ts";
import { askJson, type FindAsk } from "./ask.ts";
import { verifyPrompt, verifySchema, type ReadPage, type VerifyAnswer } from "./prompts.ts";

// A candidate verified on its own pages: its site (found by a search when the results gave only
// its name), its home and about pages read through the guarded scraper, and the model's verdict
// on each criterion, kept only where a quote from a page this find read supports it.

export interface Verification {
  verified: VerifiedCandidate;
  /** Pages read (each charged as a scrape) and whether a search found its site. */
  pagesRead: number;
  located: boolean;
}

export async function verifyCandidate(
  deps: FindAsk,
  tools: Omit<ToolContext, "instructions" | "inputs">,
  find: FindJob,
  candidate: ClaimedCandidate,
  valueColumns: readonly string[],
  signal: AbortSignal,
): Promise<Verification> {
  const ctx: ToolContext = {
    ...tools,
    instructions: find.criteria.map((c) => c.text).join("\n"),
    inputs: { name: candidate.name },
    signal,
  };
  let home = candidate.url;
  const located = !home;
  if (!home) {
    const [hit] = await searchPage(`${candidate.name} official website`, 1, ctx);
    if (!hit) throw appError("fetch_failed", `No website was found for "${candidate.name}".`);
    home = hit.url;
  }
  const pages: ReadPage[] = [await readPage(home, ctx)];
  for (const url of otherPages(pages[0].url)) {
    if (pages.length >= FIND_LIMITS.pagesPerCandidate) break;
    // The home page is enough to go on; a missing about page is no failure.
    const page = await readPage(url, ctx).catch(() => null);
    if (page) pages.push(page);
  }
  const answer = await askJson(deps, {
    ...verifyPrompt(find, candidate, pages, valueColumns),
    schema: verifySchema,
    signal,
  });
  return {
    verified: {
      verdicts: groundVerdicts(find, answer, pages),
      values: Object.fromEntries(answer.values.map((v) => [v.column, v.value])),
      url: pages[0].url,
    },
    pagesRead: pages.length,
    located,
  };
}

async function readPage(url: string, ctx: ToolContext): Promise<ReadPage> {
  const result = await scrapeUrlTool.execute({ url }, ctx);
  const doc = result.documents[0];
  return {
    url: doc?.url ?? url,
    title: doc?.title ?? url,
    text: typeof result.output === "string" ? result.output : "",
  };
}

function otherPages(home: string): string[] {
  const origin = new URL(home).origin;
  return [`${origin}/about`].filter((u) => u !== home);
}

const squash = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();

/**
 * The verdicts as stored: every criterion present (a missing one is unclear), each source a page
 * this find read with a quote that is on it. A yes or no left without such a quote is unclear.
 */
export function groundVerdicts(
  find: Pick<FindJob, "criteria">,
  answer: VerifyAnswer,
  pages: readonly ReadPage[],
): CriterionVerdict[] {
  return find.criteria.map((criterion) => {
    const given = answer.verdicts.find((v) => v.criterionId === criterion.id);
    if (!given) {
      return {
        criterionId: criterion.id,
        satisfied: "unclear",
        reasoning: "No verdict was given.",
        sources: [],
        confidence: 0,
      };
    }
    const sources = given.quotes.flatMap((q) => {
      const text = squash(q.text);
      if (text.length < 3) return [];
      // The page the quote cites, or else the page it is really on.
      const page =
        pages.find((p) => p.url === q.url && squash(p.text).includes(text)) ??
        pages.find((p) => squash(p.text).includes(text));
      if (!page) return [];
      return [{ url: page.url, title: page.title, excerpt: q.text.trim().slice(0, 1_000) }];
    });
    const unsupported = given.satisfied !== "unclear" && sources.length === 0;
    return {
      criterionId: criterion.id,
      satisfied: unsupported ? "unclear" : given.satisfied,
      reasoning: unsupported
        ? `${given.reasoning.trim()} (No words of the pages read show it, so it stays unclear.)`.trim()
        : given.reasoning.trim(),
      sources,
      confidence: unsupported ? Math.min(given.confidence, 0.3) : given.confidence,
    };
  });
}
