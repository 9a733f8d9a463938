import type { Runtime } from "../../runtime.ts";
import { inTransaction } from "../../db/work.ts";
import { isAppError } from "../../errors.ts";
import { loadBase, loadColumns } from "../../domain/base-context.ts";
import { isGenerated } from "../../domain/fill/kinds.ts";
import {
  claimCandidates,
  failCandidate,
  findProgress,
  releaseCandidate,
  type ClaimedCandidate,
  existingKeys,
  finishFind,
  releaseFind,
  renewFindLease,
  runStatusOf,
  type FindJob,
  FIND_LIMITS,
  addFoundRow,
  isSuperseded,
  storeVerified,
} from "../../domain/finds/index.ts";
import type { RunPolicy } from "../../domain/runs/index.ts";
import type { ToolContext } from "../../tools/types.ts";
import { classifyError } from "../llm/classify-error.ts";
import { InsufficientCredits } from "../../domain/cells/index.ts";
import type { FindAsk } from "./ask.ts";
import { planQueries, searchNextPage } from "./steps.ts";
import { verifyCandidate } from "./verify.ts";

// One find, worked by the process holding its lease until it stops or must wait: plan the
// searches, then verify what is waiting, and read another page of results when nothing is; stop at
// the target, when the searches run dry, or when a preview has verified its share. A paused run
// (by a user, or its budget) hands the find back; a cancelled one ends it.

export interface FindWorkDeps extends FindAsk {
  tools: Omit<ToolContext, "instructions" | "inputs">;
  owner: string;
}

export async function workFind(deps: FindWorkDeps, find: FindJob, signal: AbortSignal): Promise<void> {
  const { rt, owner } = deps;
  const leaseMs = rt.config.ai.leaseMs;
  const { columns, existing } = await rt.db.prisma.$transaction(async (tx) => {
    const baseCtx = await loadBase(tx, find.workspaceId, find.baseId);
    const columns = await loadColumns(tx, baseCtx.sheetId);
    return { columns, existing: await existingKeys(tx, baseCtx.sheetId, columns) };
  });
  const criterionColumns = new Set(find.criteria.map((c) => c.columnId));
  const valueColumns = columns
    .filter((c) => !c.isPrimary && !isGenerated(c) && !c.fill && !criterionColumns.has(c.id) && c.type !== "url")
    .map((c) => c.name);
  const policy = await policyOf(rt, find);
  for (;;) {
    if (signal.aborted) return;
    const status = await runStatusOf(rt.db.prisma, find.runId);
    if (status === "cancelled") return void (await inTransaction(rt, (w) => finishFind(w, find, owner, "cancelled")));
    if (status !== "running") return releaseFind(rt.db.prisma, find.id, owner);
    if (!(await renewFindLease(rt.db.prisma, find.id, owner, leaseMs))) return;
    if (find.phase === "plan") {
      if ((await planQueries(rt, deps, find, owner, signal)) !== "done")
        return releaseFind(rt.db.prisma, find.id, owner);
      continue;
    }
    if (!find.preview) await addPreviewMatches(rt, find, policy);
    const progress = await findProgress(rt.db.prisma, find.id);
    if (!find.preview && progress.added >= find.target)
      return void (await inTransaction(rt, (w) => finishFind(w, find, owner, "target")));
    const previewLeft = FIND_LIMITS.previewCandidates - progress.verified;
    if (find.preview && previewLeft <= 0)
      return void (await inTransaction(rt, (w) => finishFind(w, find, owner, "preview")));
    if (progress.pending > 0) {
      const room = find.preview ? previewLeft : Math.max(1, find.target - progress.added);
      const limit = Math.min(rt.config.ai.concurrency, room);
      const claimed = await claimCandidates(rt.db.prisma, find, owner, limit, leaseMs);
      // Every verification of the batch settles before the find goes on or ends: one still writing
      // while the find ends would take the same rows' locks in another order.
      const settled = await Promise.allSettled(
        claimed.map((c) => verifyOne(deps, find, c, valueColumns, policy, signal)),
      );
      const failure = settled.find((s) => s.status === "rejected");
      if (failure) throw failure.reason;
      const outcomes = settled.map((s) => (s as PromiseFulfilledResult<string>).value);
      if (outcomes.includes("stopped")) return releaseFind(rt.db.prisma, find.id, owner);
      continue;
    }
    if (!find.queries.some((q) => !q.exhausted))
      return void (await inTransaction(rt, (w) => finishFind(w, find, owner, find.preview ? "preview" : "exhausted")));
    const step = await searchNextPage(rt, deps, deps.tools, find, owner, existing, signal);
    if (step !== "done") return releaseFind(rt.db.prisma, find.id, owner);
  }
}

async function verifyOne(
  deps: FindWorkDeps,
  find: FindJob,
  candidate: ClaimedCandidate,
  valueColumns: readonly string[],
  policy: RunPolicy,
  signal: AbortSignal,
): Promise<"stored" | "stopped" | "failed"> {
  const { rt, owner } = deps;
  const costs = rt.config.credits.find;
  try {
    const v = await verifyCandidate(deps, deps.tools, find, candidate, valueColumns, signal);
    const charges = [
      ...(v.located
        ? [{ amount: costs.search, reason: "find_search" as const, key: `find:${candidate.id}:locate` }]
        : []),
      ...Array.from({ length: v.pagesRead }, (_, i) => ({
        amount: costs.scrape,
        reason: "find_scrape" as const,
        key: `find:${candidate.id}:scrape:${i}`,
      })),
      { amount: costs.verify, reason: "find_verify" as const, key: `find:${candidate.id}:verify` },
    ].map((c) => ({ ...c, candidateId: candidate.id }));
    const stored = await inTransaction(rt, (w) =>
      storeVerified(w, find, candidate, owner, v.verified, charges, policy),
    );
    return stored === "stopped" ? "stopped" : "stored";
  } catch (e) {
    if (isSuperseded(e)) return "failed";
    // The workspace cannot pay: the find ends (worker.ts), the candidate waits for an extension.
    if (e instanceof InsufficientCredits) {
      await releaseCandidate(rt.db.prisma, candidate.id, owner, false);
      throw e;
    }
    const c = isAppError(e) ? { code: e.code, message: e.message, retryable: false } : classifyError(e);
    if (signal.aborted) {
      await releaseCandidate(rt.db.prisma, candidate.id, owner, false);
      return "failed";
    }
    if (c.retryable && candidate.attempts + 1 < FIND_LIMITS.attempts)
      await releaseCandidate(rt.db.prisma, candidate.id, owner, true);
    else await failCandidate(rt.db.prisma, candidate.id, owner, { code: c.code, message: c.message });
    return "failed";
  }
}

/** A preview's matches, or those of a find stopped before adding them, become rows once it goes on. */
async function addPreviewMatches(rt: Runtime, find: FindJob, policy: RunPolicy) {
  const { added } = await findProgress(rt.db.prisma, find.id);
  const waiting = await rt.db.prisma.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM find_candidates WHERE find_id = $1 AND row_id IS NULL
       AND (status = 'matched' OR (status = 'unclear' AND $2::boolean)) ORDER BY finished_at, id LIMIT $3`,
    find.id,
    find.includeUnclear,
    Math.max(0, find.target - added),
  );
  for (const { id } of waiting) await inTransaction(rt, (w) => addFoundRow(w, find, id, policy));
}

/** What the rows a find adds are run under: its run's key, the deployment's cell cost. */
async function policyOf(rt: Runtime, find: FindJob): Promise<RunPolicy> {
  const run = await rt.db.prisma.run.findUnique({ where: { id: find.runId }, select: { keyId: true } });
  return { cellCost: rt.config.runs.cellCost, defaultMaxCredits: null, keyId: run?.keyId ?? null };
}
