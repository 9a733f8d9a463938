import type { Tx } from "../../db/database.ts";
import { appError } from "../../errors.ts";
import { loadBase } from "../base-context.ts";
import { getRun } from "../runs/record.ts";
import { agreementOf, byConfidence, expectedCalibrationError } from "../quality/index.ts";
import type { EvaluationSettings } from "./settings.ts";

// An evaluation as the API shows it: its run's status and spending, its rows' verdicts, and the
// figures computed from them (the same arithmetic as a column's quality).

type ItemRow = {
  row_id: string;
  status: string;
  expected: string;
  got: string | null;
  correct: boolean | null;
  confidence: number | null;
  reason: string | null;
  previous_value: string | null;
  previous_correct: boolean | null;
};

type EvaluationRecord = NonNullable<Awaited<ReturnType<Tx["evaluation"]["findFirst"]>>>;

export async function evaluationView(tx: Tx, workspaceId: string, evaluationId: string, opts: { results: boolean }) {
  const record = await tx.evaluation.findFirst({ where: { id: evaluationId, workspaceId } });
  if (!record) throw appError("evaluation_not_found", `No evaluation "${evaluationId}" in this workspace.`);
  return toView(tx, record, opts);
}

/** A column's evaluations, newest first, without their rows. */
export async function listEvaluations(tx: Tx, workspaceId: string, baseId: string, columnId: string, limit: number) {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const column = await tx.column.findFirst({ where: { id: columnId, sheetId: baseCtx.sheetId }, select: { id: true } });
  if (!column) throw appError("column_not_found", `No column "${columnId}" in this base.`);
  const records = await tx.evaluation.findMany({
    where: { workspaceId, baseId: baseCtx.baseId, columnId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return { evaluations: await Promise.all(records.map((r) => toView(tx, r, { results: false }))) };
}

async function toView(tx: Tx, record: EvaluationRecord, opts: { results: boolean }) {
  const run = await getRun(tx, record.workspaceId, record.runId);
  const items = await tx.$queryRawUnsafe<ItemRow[]>(
    `SELECT row_id, status, expected, got, correct, confidence, reason, previous_value, previous_correct
     FROM evaluation_items WHERE evaluation_id = $1 ORDER BY row_id`,
    record.id,
  );
  const judged = items.filter((i) => i.status === "done" && i.correct !== null);
  const labelled = judged.flatMap((i) =>
    i.confidence === null ? [] : [{ confidence: i.confidence, correct: i.correct! }],
  );
  const previous = judged.flatMap((i) => (i.previous_correct === null ? [] : [{ correct: i.previous_correct }]));
  const settings = record.settings as unknown as EvaluationSettings;
  const count = (status: string) => items.filter((i) => i.status === status).length;
  return {
    id: record.id,
    baseId: record.baseId,
    columnId: record.columnId,
    runId: record.runId,
    status: run.status,
    settings: {
      instructions: settings.instructions,
      model: settings.modelLabel,
      tools: settings.tools,
      judgeModel: settings.judgeModel,
      changed: settings.changed,
    },
    counts: {
      rows: items.length,
      pending: count("pending"),
      running: count("running"),
      done: count("done"),
      error: count("error"),
      cancelled: count("cancelled"),
      correct: judged.filter((i) => i.correct).length,
      incorrect: judged.filter((i) => !i.correct).length,
    },
    accuracy: agreementOf(judged.map((i) => ({ correct: i.correct! }))),
    previousAccuracy: agreementOf(previous),
    expectedCalibrationError: expectedCalibrationError(labelled),
    byConfidence: byConfidence(labelled),
    creditsSpent: run.creditsSpent,
    estimatedCredits: record.estimatedCredits,
    createdAt: record.createdAt.toISOString(),
    finishedAt: run.finishedAt,
    appliedAt: record.appliedAt?.toISOString() ?? null,
    ...(opts.results
      ? {
          results: items.map((i) => ({
            rowId: i.row_id,
            status: i.status,
            expected: i.expected,
            got: i.got,
            correct: i.correct,
            confidence: i.confidence,
            reason: i.reason,
            previous:
              i.previous_correct === null ? null : { value: i.previous_value ?? "", correct: i.previous_correct },
          })),
        }
      : {}),
  };
}

export type EvaluationView = Awaited<ReturnType<typeof toView>>;
