import type { Tx } from "../../db/database.ts";
import { appError } from "../../errors.ts";
import { loadBase } from "../base-context.ts";
import { getRun, type RunStatus } from "../runs/index.ts";
import type { CriterionVerdict, FindCandidateStatus, PlannedQuery, StoredCriterion } from "./schemas.ts";

// A find as the API shows it: its run's state, what it came across and what became of it, each
// criterion's success rate, and what it spent (with an estimate for the whole count).

export interface FindView {
  id: string;
  baseId: string;
  runId: string;
  status: RunStatus;
  /** plan, search (looking and verifying) or done. */
  phase: string;
  stopReason: string | null;
  query: string;
  criteria: (StoredCriterion & { yes: number; no: number; unclear: number; successRate: number | null })[];
  entity: unknown;
  count: number;
  preview: boolean;
  includeUnclear: boolean;
  excludeExisting: boolean;
  candidates: {
    generated: number;
    pending: number;
    verified: number;
    matched: number;
    rejected: number;
    unclear: number;
    excluded: number;
    errors: number;
    added: number;
  };
  credits: { spent: number; maxCredits: number | null; perMatch: number | null; estimateForCount: number | null };
  queries: { q: string; pagesRead: number; exhausted: boolean }[];
  error: { code: string; message: string } | null;
  createdAt: string;
  finishedAt: string | null;
}

type FindRecord = NonNullable<Awaited<ReturnType<Tx["find"]["findFirst"]>>>;

export async function findView(tx: Tx, workspaceId: string, baseId: string, findId: string): Promise<FindView> {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const record = await tx.find.findFirst({ where: { id: findId, workspaceId, baseId: baseCtx.baseId } });
  if (!record) throw appError("find_not_found", `No find "${findId}" in this base.`);
  return toView(tx, record);
}

/** A base's finds, newest first. */
export async function listFinds(tx: Tx, workspaceId: string, baseId: string, limit: number): Promise<FindView[]> {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const records = await tx.find.findMany({
    where: { workspaceId, baseId: baseCtx.baseId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return Promise.all(records.map((r) => toView(tx, r)));
}

async function toView(tx: Tx, f: FindRecord): Promise<FindView> {
  const run = await getRun(tx, f.workspaceId, f.runId);
  const byStatus = await tx.$queryRawUnsafe<{ status: FindCandidateStatus; n: number; added: number }[]>(
    `SELECT status, count(*)::int AS n, count(row_id)::int AS added FROM find_candidates WHERE find_id = $1 GROUP BY status`,
    f.id,
  );
  const n = (s: FindCandidateStatus) => byStatus.find((b) => b.status === s)?.n ?? 0;
  const verdicts = await tx.$queryRawUnsafe<{ criterion: string; satisfied: string; n: number }[]>(
    `SELECT v->>'criterionId' AS criterion, v->>'satisfied' AS satisfied, count(*)::int AS n
     FROM find_candidates c, jsonb_array_elements(c.verdicts) v
     WHERE c.find_id = $1 AND c.status IN ('matched', 'rejected', 'unclear') GROUP BY 1, 2`,
    f.id,
  );
  const count = (id: string, s: string) => verdicts.find((v) => v.criterion === id && v.satisfied === s)?.n ?? 0;
  const matched = n("matched");
  const perMatch = matched > 0 ? round(f.creditsSpent / matched) : null;
  const criteria = (f.criteria as unknown as StoredCriterion[]).map((c) => {
    const [yes, no, unclear] = [count(c.id, "yes"), count(c.id, "no"), count(c.id, "unclear")];
    const total = yes + no + unclear;
    return { ...c, yes, no, unclear, successRate: total > 0 ? round(yes / total) : null };
  });
  return {
    id: f.id,
    baseId: f.baseId,
    runId: f.runId,
    status: run.status,
    phase: f.phase,
    stopReason: f.stopReason,
    query: f.query,
    criteria,
    entity: f.entity ?? null,
    count: f.target,
    preview: f.preview,
    includeUnclear: f.includeUnclear,
    excludeExisting: f.excludeExisting,
    candidates: {
      generated: byStatus.reduce((sum, b) => sum + b.n, 0),
      pending: n("pending") + n("running"),
      verified: matched + n("rejected") + n("unclear"),
      matched,
      rejected: n("rejected"),
      unclear: n("unclear"),
      excluded: n("excluded"),
      errors: n("error"),
      added: byStatus.reduce((sum, b) => sum + b.added, 0),
    },
    credits: {
      spent: f.creditsSpent,
      maxCredits: run.maxCredits,
      perMatch,
      estimateForCount: perMatch === null ? null : Math.ceil(perMatch * f.target),
    },
    queries: (f.queries as unknown as PlannedQuery[]).map((q) => ({
      q: q.q,
      pagesRead: q.page - 1,
      exhausted: q.exhausted,
    })),
    error: f.errorCode ? { code: f.errorCode, message: f.errorMessage ?? "" } : null,
    createdAt: f.createdAt.toISOString(),
    finishedAt: f.finishedAt?.toISOString() ?? null,
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export interface CandidateView {
  id: string;
  name: string;
  url: string | null;
  key: string;
  status: FindCandidateStatus;
  query: string | null;
  snippet: string | null;
  verdicts: CriterionVerdict[];
  rowId: string | null;
  credits: number;
  error: { code: string; message: string } | null;
}

/** A find's candidates, optionally of some statuses, in the order they were found; paged by id. */
export async function listCandidates(
  tx: Tx,
  workspaceId: string,
  baseId: string,
  findId: string,
  opts: { statuses?: string[]; limit: number; cursor?: string },
): Promise<{ candidates: CandidateView[]; nextCursor: string | null }> {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const find = await tx.find.findFirst({
    where: { id: findId, workspaceId, baseId: baseCtx.baseId },
    select: { id: true },
  });
  if (!find) throw appError("find_not_found", `No find "${findId}" in this base.`);
  const rows = await tx.findCandidate.findMany({
    where: {
      findId,
      ...(opts.statuses?.length ? { status: { in: opts.statuses } } : {}),
      ...(opts.cursor ? { id: { gt: opts.cursor } } : {}),
    },
    orderBy: { id: "asc" },
    take: opts.limit + 1,
  });
  const page = rows.slice(0, opts.limit);
  return {
    candidates: page.map((c) => ({
      id: c.id,
      name: c.name,
      url: c.url,
      key: c.key,
      status: c.status as FindCandidateStatus,
      query: c.query,
      snippet: c.snippet,
      verdicts: (c.verdicts ?? []) as unknown as CriterionVerdict[],
      rowId: c.rowId,
      credits: c.credits,
      error: c.errorCode ? { code: c.errorCode, message: c.errorMessage ?? "" } : null,
    })),
    nextCursor: rows.length > opts.limit ? page[page.length - 1].id : null,
  };
}
