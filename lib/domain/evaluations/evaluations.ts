import type { Tx } from "../../db/database.ts";
import type { Work } from "../../db/work.ts";
import { appError } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { loadAiColumn, loadBase } from "../base-context.ts";
import type { CellMetadata } from "../cell-view.ts";
import { updateColumn } from "../columns/index.ts";
import { columnOptionsOf } from "../column-model.ts";
import type { ProviderName } from "../model-spec.ts";
import { assertKeyRoom } from "../../credits/key-cap.ts";
import { createRun, getRun, type RunPolicy } from "../runs/record.ts";
import {
  DEFAULT_EVALUATION_ROWS,
  evaluationSettings,
  type EvaluateRequest,
  type EvaluationSettings,
} from "./settings.ts";
import { evaluationView } from "./view.ts";

// Evaluations: an AI column regenerated blind on its verified rows, each answer compared with
// the verified value. It is a run (trigger "evaluation"): charged per row like a cell, capped,
// paused and cancelled like any run. It never writes the base's cells.

/** What an evaluation starts with, from the deployment's configuration. */
export interface EvaluationPolicy extends RunPolicy {
  /** AI_MODEL: the model of columns that name none. */
  defaultModel: string | undefined;
  /** Throws when a model cannot be called here (its provider is not configured). */
  checkModel(spec: string): void;
  /** The configured providers: a bare model id names the only one, as in AI_MODEL. */
  providers: readonly ProviderName[];
}

/** Refuses before anything is queued what every row would fail on. */
function usableSettings(settings: EvaluationSettings, policy: EvaluationPolicy): EvaluationSettings {
  policy.checkModel(settings.modelLabel);
  if (settings.judgeModel) policy.checkModel(settings.judgeModel);
  return settings;
}

interface LabelRow {
  row_id: string;
  expected: string;
  metadata: Partial<CellMetadata> | null;
}

/** The verified rows to evaluate on, with the verified value and the column's own answer. */
async function labelledRows(tx: Tx, columnId: string, req: EvaluateRequest): Promise<LabelRow[]> {
  const rows = await tx.$queryRawUnsafe<LabelRow[]>(
    `SELECT c.row_id, COALESCE(r."values"->>$1, '') AS expected, c.metadata FROM cells c JOIN rows r ON r.id = c.row_id
     WHERE c.column_id = $1 AND c.verified AND c.status = 'done' AND ($2::text[] IS NULL OR c.row_id = ANY($2::text[]))
     ORDER BY c.reviewed_at DESC NULLS LAST, c.row_id LIMIT $3`,
    columnId,
    req.rowIds ?? null,
    req.rowIds ? req.rowIds.length : (req.limit ?? DEFAULT_EVALUATION_ROWS),
  );
  if (req.rowIds) {
    const found = new Set(rows.map((r) => r.row_id));
    const missing = [...new Set(req.rowIds)].filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw appError(
        "validation_failed",
        `${missing.length} of the rows have no verified value in this column, e.g. "${missing[0]}".`,
        { field: "rowIds", rowIds: missing.slice(0, 20) },
      );
    }
  }
  if (rows.length === 0) {
    throw appError(
      "nothing_to_evaluate",
      "The column has no verified cells: accept or correct some of its cells first, then evaluate.",
    );
  }
  return rows;
}

/** The column's own answer on a verified row: right if accepted, wrong if corrected; none if a person typed it. */
function previousAnswer(row: LabelRow): { value: string; correct: boolean } | null {
  if (row.metadata?.suppliedByUser) return null;
  return typeof row.metadata?.aiValue === "string"
    ? { value: row.metadata.aiValue, correct: false }
    : { value: row.expected, correct: true };
}

export async function estimateEvaluation(
  tx: Tx,
  workspaceId: string,
  baseId: string,
  columnId: string,
  req: EvaluateRequest,
  policy: EvaluationPolicy,
) {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  usableSettings(
    evaluationSettings(await loadAiColumn(tx, baseCtx, columnId), req, policy.defaultModel, policy.providers),
    policy,
  );
  const rows = await labelledRows(tx, columnId, req);
  return { rows: rows.length, estimatedCredits: rows.length * policy.cellCost };
}

export async function createEvaluation(
  w: Work,
  workspaceId: string,
  baseId: string,
  columnId: string,
  req: EvaluateRequest,
  policy: EvaluationPolicy,
) {
  const baseCtx = await loadBase(w.tx, workspaceId, baseId);
  const column = await loadAiColumn(w.tx, baseCtx, columnId);
  const settings = usableSettings(evaluationSettings(column, req, policy.defaultModel, policy.providers), policy);
  const rows = await labelledRows(w.tx, column.id, req);
  const maxCredits = req.maxCredits ?? policy.defaultMaxCredits;
  await assertKeyRoom(w.tx, policy.keyId, Math.min(rows.length * policy.cellCost, maxCredits ?? Infinity));
  const runId = await createRun(w, {
    workspaceId,
    baseId: baseCtx.baseId,
    trigger: "evaluation",
    cells: rows.length,
    cellCost: policy.cellCost,
    maxCredits,
    keyId: policy.keyId ?? null,
  });
  const id = newId.evaluation();
  const estimatedCredits = rows.length * policy.cellCost;
  await w.tx.evaluation.create({
    data: {
      id,
      workspaceId,
      baseId: baseCtx.baseId,
      columnId: column.id,
      runId,
      settings: { ...settings },
      estimatedCredits,
    },
  });
  const previous = rows.map(previousAnswer);
  await w.tx.$executeRawUnsafe(
    `INSERT INTO evaluation_items (evaluation_id, row_id, run_id, expected, previous_value, previous_correct)
     SELECT $1, t.row_id, $2, t.expected, t.previous_value, t.previous_correct
     FROM unnest($3::text[], $4::text[], $5::text[], $6::boolean[]) AS t(row_id, expected, previous_value, previous_correct)`,
    id,
    runId,
    rows.map((r) => r.row_id),
    rows.map((r) => r.expected),
    previous.map((p) => p?.value ?? null),
    previous.map((p) => p?.correct ?? null),
  );
  w.emit({ type: "work.available" });
  return { id, runId, rows: rows.length, estimatedCredits };
}

/** Writes the evaluation's instructions, model and tools to its column. */
export async function applyEvaluation(
  w: Work,
  workspaceId: string,
  baseId: string,
  columnId: string,
  evaluationId: string,
  providers: readonly ProviderName[],
) {
  const baseCtx = await loadBase(w.tx, workspaceId, baseId);
  const found = await w.tx.evaluation.findFirst({
    where: { id: evaluationId, workspaceId, baseId: baseCtx.baseId, columnId },
  });
  if (!found) throw appError("evaluation_not_found", `No evaluation "${evaluationId}" of this column.`);
  const { status } = await getRun(w.tx, workspaceId, found.runId);
  if (status !== "done")
    throw appError("evaluation_not_finished", `The evaluation is ${status}; apply it once it is done.`);
  const column = await loadAiColumn(w.tx, baseCtx, columnId);
  const s = found.settings as unknown as EvaluationSettings;
  const options = { ...columnOptionsOf(column) };
  if (s.model === null) delete options.model;
  else options.model = s.model;
  const view = await updateColumn(
    w,
    workspaceId,
    baseCtx.baseId,
    column.id,
    { instructions: s.instructions, tools: s.tools, columnOptions: options },
    providers,
  );
  await w.tx.evaluation.update({ where: { id: evaluationId }, data: { appliedAt: new Date() } });
  return { column: view, evaluation: await evaluationView(w.tx, workspaceId, evaluationId, { results: false }) };
}
