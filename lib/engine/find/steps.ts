import type { Runtime } from "../../runtime.ts";
import { inTransaction } from "../../db/work.ts";
import {
  insertCandidates,
  chargeStep,
  saveQueries,
  type FindJob,
  FIND_LIMITS,
  type PlannedQuery,
} from "../../domain/finds/index.ts";
import { searchPage } from "../../tools/web-search.ts";
import type { ToolContext } from "../../tools/types.ts";
import { askJson, type FindAsk } from "./ask.ts";
import { extractPrompt, extractSchema, planPrompt, planSchema } from "./prompts.ts";

// The steps of a find before verification, each stored with its charge in one transaction under
// a key of its own: planning the searches once, then reading one page of one search at a time.

type StepResult = "done" | "stopped" | "lost";

class LeaseLost extends Error {}

export async function planQueries(
  rt: Runtime,
  deps: FindAsk,
  find: FindJob,
  owner: string,
  signal: AbortSignal,
): Promise<StepResult> {
  const answer = await askJson(deps, { ...planPrompt(find), schema: planSchema, signal });
  // An extension plans again once every search ran dry: the searches done stay, spent.
  const seen = new Set(find.queries.map((q) => q.q.toLowerCase()));
  const fresh = [find.query, ...answer.queries]
    .map((q) => q.replace(/\s+/g, " ").trim())
    .filter((q) => q && !seen.has(q.toLowerCase()) && seen.add(q.toLowerCase()))
    .slice(0, FIND_LIMITS.plannedQueries)
    .map((q): PlannedQuery => ({ q, page: 1, exhausted: false }));
  const queries = [...find.queries, ...fresh];
  return inTransaction(rt, async (w) => {
    const charge = {
      amount: rt.config.credits.find.plan,
      reason: "find_plan" as const,
      key: `find:${find.id}:plan:${find.queries.length}`,
    };
    if ((await chargeStep(w, find, [charge])) === "stopped") return "stopped";
    if (!(await saveQueries(w.tx, find, owner, queries))) return "lost";
    find.queries = queries;
    find.phase = "search";
    return "done";
  });
}

/**
 * Reads the next page of the first search with pages left: its results become candidates (the
 * base's own entities excluded, those met before left alone). A search is done when a page comes
 * back empty, or after its last page.
 */
export async function searchNextPage(
  rt: Runtime,
  deps: FindAsk,
  tools: Omit<ToolContext, "instructions" | "inputs">,
  find: FindJob,
  owner: string,
  existing: ReadonlySet<string>,
  signal: AbortSignal,
): Promise<StepResult> {
  const index = find.queries.findIndex((q) => !q.exhausted);
  const query = find.queries[index];
  const ctx: ToolContext = { ...tools, instructions: find.query, inputs: {}, signal };
  const hits = await searchPage(query.q, query.page, ctx);
  const entities =
    hits.length > 0
      ? (await askJson(deps, { ...extractPrompt(find, query.q, hits), schema: extractSchema, signal })).entities
      : [];
  // A site the results did not show is not taken on the model's word: the candidate is then found by name.
  const hitOf = (url: string | null) => hits.find((h) => h.url === url);
  const next: PlannedQuery = {
    q: query.q,
    page: query.page + 1,
    exhausted: hits.length === 0 || query.page >= FIND_LIMITS.pagesPerQuery,
  };
  const queries = find.queries.map((q, i) => (i === index ? next : q));
  return inTransaction(rt, async (w) => {
    const charge = {
      amount: hits.length > 0 ? rt.config.credits.find.search : 0,
      reason: "find_search" as const,
      key: `find:${find.id}:search:${index}:${query.page}`,
    };
    if ((await chargeStep(w, find, [charge])) === "stopped") return "stopped";
    await insertCandidates(
      w,
      find,
      entities.map((e) => ({
        name: e.name,
        url: hitOf(e.url)?.url ?? null,
        snippet: hitOf(e.url)?.snippet ?? null,
        query: query.q,
      })),
      existing,
    );
    // Lost the lease: the charge and the candidates roll back with the transaction.
    if (!(await saveQueries(w.tx, find, owner, queries))) throw new LeaseLost();
    find.queries = queries;
    return "done" as const;
  }).catch((e) => {
    if (e instanceof LeaseLost) return "lost" as const;
    throw e;
  });
}
