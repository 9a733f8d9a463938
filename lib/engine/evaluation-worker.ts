import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Runtime } from "../runtime.ts";
import { inTransaction } from "../db/work.ts";
import { answersMatch } from "../domain/evaluations/index.ts";
import { evaluatedColumn, type EvaluationSettings } from "../domain/evaluations/index.ts";
import {
  claimItems,
  completeItem,
  failItem,
  renewItemLeases,
  retryItem,
  returnItemLeases,
  type ClaimedItem,
} from "../domain/evaluations/index.ts";
import { InsufficientCredits } from "../domain/cells/index.ts";
import { loadColumns } from "../domain/base-context.ts";
// The module, not the llm barrel: the AI SDK loads with the first question, not at boot.
import { classifyError } from "./llm/classify-error.ts";
import { backoffMs } from "./backoff.ts";
import type { AskDeps, ColumnQuestion } from "./ask-column.ts";
import { examplesFor, loadExamples } from "./cell-context.ts";

// The evaluation worker of a process that runs background work: it claims evaluation rows,
// asks the model the column's question with the evaluation's settings, compares the answer with
// the verified value, and stores the verdict with its charge. It has slots of its own
// (AI_CONCURRENCY), so an evaluation never waits behind a large run, nor holds one up; both share
// the provider's rate limit.

const POLL_MS = 1_000;
const QUIET_MS = 500;

export function startEvaluationWorker(rt: Runtime, deps: AskDeps): { stop: () => Promise<void> } {
  const owner = `${hostname()}:${process.pid}:eval:${randomBytes(4).toString("hex")}`;
  const { leaseMs, concurrency } = rt.config.ai;
  const prisma = rt.db.prisma;
  const inFlight = new Map<string, { ctl: AbortController; runId: string }>();
  let stopped = false;
  let claiming: Promise<void> | undefined;
  // The engine announces work.available on every commit that queues cells; after a claim that
  // found nothing, those wake-ups are ignored for a while (the poll still comes), so a busy run
  // does not pay a claim statement per commit.
  let quietUntil = 0;
  const ready = rt.db.exclusive ? returnItemLeases(prisma, { all: true }) : Promise.resolve(0);

  const tick = (woken = false) => {
    if (stopped || claiming || (woken && Date.now() < quietUntil)) return;
    claiming = (async () => {
      try {
        await ready;
        const items = await claimItems(prisma, owner, concurrency - inFlight.size, leaseMs);
        quietUntil = items.length === 0 ? Date.now() + QUIET_MS : 0;
        for (const item of items) {
          const ctl = new AbortController();
          const key = `${item.evaluationId}:${item.rowId}`;
          inFlight.set(key, { ctl, runId: item.runId });
          void evaluateRow(rt, deps, owner, item, ctl.signal)
            .catch((e) => console.error("[cellwright] evaluating a row failed:", e))
            .finally(() => {
              inFlight.delete(key);
              tick();
            });
        }
      } catch (e) {
        if (!stopped) console.error("[cellwright] the evaluation worker failed to claim:", e);
      } finally {
        claiming = undefined;
      }
    })();
  };
  const poll = setInterval(() => tick(), POLL_MS);
  // Renews this worker's leases, and hands back those of workers that died.
  const heartbeat = setInterval(
    () => {
      if (inFlight.size > 0) void renewItemLeases(prisma, owner, leaseMs).catch(() => undefined);
      void returnItemLeases(prisma, {}).catch(() => undefined);
    },
    Math.max(250, leaseMs / 3),
  );
  const off = rt.bus.on((e) => {
    if (e.type === "work.available") tick(true);
    // A cancelled evaluation stops paying for calls at once: its rows here abort (they are already cancelled).
    else if (e.type === "evaluation.cancelled")
      for (const f of inFlight.values()) if (f.runId === e.runId) f.ctl.abort(new Error("cancelled"));
  });
  tick();

  const stop = async () => {
    stopped = true;
    clearInterval(poll);
    clearInterval(heartbeat);
    off();
    await claiming;
    for (const { ctl } of inFlight.values()) ctl.abort(new Error("shutting down"));
    // Handed back at once: the next worker (or this one, restarted) asks again, uncharged.
    await returnItemLeases(prisma, { owner }).catch(() => undefined);
  };
  rt.services.push({ name: "evaluation worker", stop });
  return { stop };
}

interface RowContext {
  question: ColumnQuestion;
  settings: EvaluationSettings;
  baseId: string;
  expected: string;
  credits: number | null;
}

async function loadRow(rt: Runtime, item: ClaimedItem): Promise<RowContext | "row_not_found" | "column_not_found"> {
  const prisma = rt.db.prisma;
  const [row] = await prisma.$queryRawUnsafe<
    {
      settings: EvaluationSettings;
      column_id: string;
      base_id: string;
      base_name: string;
      workspace_id: string;
      sheet_id: string;
      values: Record<string, string> | null;
      expected: string;
      credits: bigint | null;
    }[]
  >(
    `SELECT ev.settings, ev.column_id, b.id AS base_id, b.name AS base_name, b.workspace_id, s.id AS sheet_id, r."values", ei.expected, w.credits
     FROM evaluation_items ei JOIN evaluations ev ON ev.id = ei.evaluation_id JOIN bases b ON b.id = ev.base_id
     JOIN sheets s ON s.base_id = b.id JOIN workspaces w ON w.id = b.workspace_id LEFT JOIN rows r ON r.id = ei.row_id AND r.sheet_id = s.id
     WHERE ei.evaluation_id = $1 AND ei.row_id = $2`,
    item.evaluationId,
    item.rowId,
  );
  if (!row || row.values === null) return "row_not_found";
  const columns = await loadColumns(prisma, row.sheet_id);
  const column = columns.find((c) => c.id === row.column_id);
  if (!column) return "column_not_found";
  // Other rows' verified values may guide the model; this row's own never does (it is the answer key).
  const examples = examplesFor(await loadExamples(prisma, [column.id]), column.id, item.rowId);
  const asked = evaluatedColumn(column, row.settings);
  return {
    question: {
      baseName: row.base_name,
      workspaceId: row.workspace_id,
      column: asked,
      columns: columns.map((c) => (c.id === asked.id ? asked : c)),
      values: row.values,
      examples,
    },
    settings: row.settings,
    baseId: row.base_id,
    expected: row.expected,
    credits: row.credits === null ? null : Number(row.credits),
  };
}

async function evaluateRow(rt: Runtime, deps: AskDeps, owner: string, item: ClaimedItem, signal: AbortSignal) {
  const fail = (code: string, message: string) => inTransaction(rt, (w) => failItem(w, item, owner, { code, message }));
  const ctx = await loadRow(rt, item);
  if (ctx === "row_not_found") return fail(ctx, "The row was deleted.");
  if (ctx === "column_not_found") return fail(ctx, "The column was deleted.");
  const cost = rt.config.credits.cellCost;
  const noCredits = () => fail("insufficient_credits", "The workspace has no credits left; top up and evaluate again.");
  if (ctx.credits !== null && ctx.credits < cost) return noCredits();
  try {
    const [{ askColumn, startAsking }, { judgeAnswer }] = await Promise.all([
      import("./ask-column.ts"),
      import("./judge.ts"),
    ]);
    const asking = startAsking(rt, ctx.question.column, 0);
    const checked = await askColumn(rt, deps, ctx.question, asking, signal);
    if (!checked.ok) return fail("invalid_output", `The model's answer did not fit the column: ${checked.problem}`);
    const { column } = ctx.question;
    const judged =
      column.type === "long-text" && ctx.settings.judgeModel && checked.value.trim() && ctx.expected.trim()
        ? await judgeAnswer(rt, deps.limiter, {
            judgeModel: ctx.settings.judgeModel,
            column,
            expected: ctx.expected,
            got: checked.value,
            signal,
          })
        : { correct: answersMatch(column, ctx.expected, checked.value), reason: null };
    const outcome = {
      got: checked.value,
      correct: judged.correct,
      confidence: checked.metadata.confidenceScore,
      reason: judged.reason,
    };
    const charge = { workspaceId: ctx.question.workspaceId, baseId: ctx.baseId, columnId: column.id, amount: cost };
    await inTransaction(rt, (w) => completeItem(w, item, owner, outcome, charge));
  } catch (e) {
    if (e instanceof InsufficientCredits) return noCredits();
    if (signal.aborted) return;
    const c = classifyError(e);
    if (c.detail)
      console.warn(`[cellwright] evaluation ${item.evaluationId} row ${item.rowId}: ${c.code}: ${c.detail}`);
    if (c.retryable && item.attempts + 1 < rt.config.ai.maxAttempts) {
      return void (await retryItem(
        rt.db.prisma,
        item,
        owner,
        backoffMs(item.attempts + 1, rt.config.ai.retryBaseMs, c.retryAfterMs),
      ));
    }
    await fail(c.code, c.message);
  }
}
