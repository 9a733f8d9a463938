import type { Tx } from "../../db/database.ts";
import type { Work } from "../../db/work.ts";
import { appError } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { assertKeyRoom } from "../../credits/key-cap.ts";
import { loadBase, loadColumns, touchBase, type BaseContext } from "../base-context.ts";
import { nameKey, type ColumnRecord } from "../column-model.ts";
import { insertColumn } from "../columns/index.ts";
import type { ProviderName } from "../model-spec.ts";
import { assertMayQueue, createRun, type RunPolicy } from "../runs/index.ts";
import { announce } from "./progress.ts";
import { findView, type FindView } from "./view.ts";
import type { ExtendFindRequest, FindRequest, StoredCriterion } from "./schemas.ts";

// Starting a find: each criterion gets its column (a yes/no/unclear AI column, re-verifiable like
// any AI cell), and the find is recorded with its own run, for the find worker to take up.

export interface FindPolicy extends RunPolicy {
  /** The deployment's configured model providers (the criteria columns are AI columns). */
  providers: readonly ProviderName[];
  /** Why a find cannot run here (no model, no web search), or null. */
  problem: { code: "ai_not_configured" | "search_not_configured"; message: string } | null;
}

export const VERDICT_OPTIONS = ["yes", "no", "unclear"];

export const criterionInstructions = (text: string) =>
  `Verify this criterion for the row's entity on its own web pages: "${text}". Answer yes, no, or unclear when its pages do not say; give the reasoning in one or two sentences, and cite the page with the words that show it.`;

export async function createFind(
  w: Work,
  workspaceId: string,
  baseId: string,
  req: FindRequest,
  policy: FindPolicy,
  /** The schedule whose execution this find is, if one started it: its run's trigger is then "schedule". */
  scheduleId?: string,
): Promise<FindView> {
  // The base first: a base the caller cannot see is 404 whatever this deployment can do.
  const baseCtx = await loadBase(w.tx, workspaceId, baseId);
  assertCanFind(policy);
  const criteria = await criteriaColumns(w.tx, baseCtx, req.criteria, policy.providers);
  const runId = await startFindRun(w, baseCtx, policy, req.maxCredits, scheduleId);
  const id = newId.find();
  await w.tx.find.create({
    data: {
      id,
      workspaceId,
      baseId: baseCtx.baseId,
      runId,
      query: req.query,
      criteria: criteria as object[],
      entity: req.entity ?? undefined,
      target: req.count,
      includeUnclear: req.includeUnclear,
      excludeExisting: req.excludeExisting,
      preview: req.preview,
    },
  });
  await touchBase(w.tx, baseCtx.baseId);
  w.emit({ type: "structure.changed", workspaceId, baseId: baseCtx.baseId });
  announce(w, { workspaceId, baseId: baseCtx.baseId, id, runId });
  w.emit({ type: "finds.available" });
  return findView(w.tx, workspaceId, baseCtx.baseId, id);
}

/**
 * Looks for `count` more rows: a new run, the same find. Candidates seen before (by this find or
 * any other of the base) are never verified again; a preview's matches are added first.
 */
export async function extendFind(
  w: Work,
  workspaceId: string,
  baseId: string,
  findId: string,
  req: ExtendFindRequest,
  policy: FindPolicy,
): Promise<FindView> {
  const baseCtx = await loadBase(w.tx, workspaceId, baseId);
  assertCanFind(policy);
  const [find] = await w.tx.$queryRawUnsafe<{ phase: string; added: number; searching: boolean }[]>(
    `SELECT f.phase, (SELECT count(*)::int FROM find_candidates c WHERE c.find_id = f.id AND c.row_id IS NOT NULL) AS added,
       EXISTS (SELECT 1 FROM jsonb_array_elements(f.queries) q WHERE NOT (q->>'exhausted')::boolean) AS searching
     FROM finds f WHERE f.id = $1 AND f.base_id = $2 FOR UPDATE`,
    findId,
    baseCtx.baseId,
  );
  if (!find) throw appError("find_not_found", `No find "${findId}" in this base.`);
  if (find.phase !== "done")
    throw appError("find_in_progress", "The find is still looking; extend it once it has stopped.");
  const runId = await startFindRun(w, baseCtx, policy, req.maxCredits);
  // Searches with pages left go on from their next page; once all ran dry, new ones are planned.
  await w.tx.$executeRawUnsafe(
    `UPDATE finds SET run_id = $2, target = $3, preview = false, phase = $4, stop_reason = NULL, finished_at = NULL,
       error_code = NULL, error_message = NULL, attempts = 0, available_at = now(), updated_at = now()
     WHERE id = $1`,
    findId,
    runId,
    find.added + req.count,
    find.searching ? "search" : "plan",
  );
  announce(w, { workspaceId, baseId: baseCtx.baseId, id: findId, runId });
  w.emit({ type: "finds.available" });
  return findView(w.tx, workspaceId, baseCtx.baseId, findId);
}

function assertCanFind(policy: FindPolicy) {
  assertMayQueue(policy, 1, "Finding rows spends credits: it needs the runs:write scope.");
  if (policy.problem) throw appError(policy.problem.code, policy.problem.message);
}

async function startFindRun(
  w: Work,
  baseCtx: BaseContext,
  policy: FindPolicy,
  maxCredits: number | undefined,
  scheduleId?: string,
) {
  const cap = maxCredits ?? policy.defaultMaxCredits;
  if (policy.keyCapCheck !== false) await assertKeyRoom(w.tx, policy.keyId, Math.min(policy.cellCost, cap ?? Infinity));
  return createRun(w, {
    workspaceId: baseCtx.workspaceId,
    baseId: baseCtx.baseId,
    trigger: scheduleId ? "schedule" : "find",
    scheduleId: scheduleId ?? null,
    cells: 0,
    cellCost: policy.cellCost,
    maxCredits: cap,
    keyId: policy.keyId ?? null,
  });
}

/** The criterion columns, made where the base has none for a criterion yet. */
async function criteriaColumns(
  tx: Tx,
  baseCtx: BaseContext,
  texts: readonly string[],
  providers: readonly ProviderName[],
): Promise<StoredCriterion[]> {
  const columns = await loadColumns(tx, baseCtx.sheetId);
  const inputs = inputColumnsOf(columns);
  const out: StoredCriterion[] = [];
  for (const [i, text] of texts.entries()) {
    const instructions = criterionInstructions(text);
    let column = columns.find((c) => c.isAiEnabled && c.instructions === instructions);
    if (!column) {
      const base = text.length > 100 ? `${text.slice(0, 99)}…` : text;
      const taken = columns.some((c) => c.nameKey === nameKey(base));
      column = await insertColumn(
        tx,
        baseCtx,
        {
          name: taken ? `${base.slice(0, 88)} (criterion)` : base,
          type: "select",
          isAiEnabled: true,
          instructions,
          inputColumnIds: inputs,
          tools: ["scrape-url", "web-search"],
          columnOptions: { options: VERDICT_OPTIONS, autoRun: "never" },
        },
        providers,
      );
      columns.push(column);
    }
    out.push({ id: `c${i + 1}`, text, columnId: column.id });
  }
  return out;
}

/** What a criterion column reads: the entity's name and its website. */
function inputColumnsOf(columns: readonly ColumnRecord[]): string[] {
  const primary = columns.find((c) => c.isPrimary);
  const site = columns.find((c) => !c.isPrimary && !c.isAiEnabled && c.type === "url");
  return [primary?.id, site?.id].filter((id): id is string => Boolean(id));
}
