import type { Tx } from "../../db/database.ts";
import { newId } from "../../ids.ts";
import type { AttemptRecord, ClaimedCell } from "./types.ts";

// The record of each attempt (table cell_runs): written with the outcome it led to.

export type AttemptRecordOf = {
  job: ClaimedCell;
  workspaceId: string;
  outcome: string;
  attempt: AttemptRecord;
  errorCode?: string;
};

export const ATTEMPT_RECORD_COLUMNS = `id, row_id, column_id, workspace_id, generation, attempt, outcome, error_code,
  provider, model, input_tokens, output_tokens, latency_ms, model_calls, cost_usd`;

/** The attempt records as a set `r`, from fifteen array parameters starting at $first (see attemptRecordParams). */
export const attemptRecordsFrom = (first: number) => {
  const types = [
    "text",
    "text",
    "text",
    "text",
    "int",
    "int",
    "text",
    "text",
    "text",
    "text",
    "int",
    "int",
    "int",
    "int",
    "float8",
  ];
  return `unnest(${types.map((type, i) => `$${first + i}::${type}[]`).join(", ")}) AS r(${ATTEMPT_RECORD_COLUMNS})`;
};

export const attemptRecordParams = (attempts: readonly AttemptRecordOf[]) => [
  attempts.map(() => newId.cellAttempt()),
  attempts.map((a) => a.job.rowId),
  attempts.map((a) => a.job.columnId),
  attempts.map((a) => a.workspaceId),
  attempts.map((a) => a.job.generation),
  attempts.map((a) => a.job.attempts + 1),
  attempts.map((a) => a.outcome),
  attempts.map((a) => a.errorCode ?? null),
  attempts.map((a) => a.attempt.provider),
  attempts.map((a) => a.attempt.model),
  attempts.map((a) => a.attempt.inputTokens),
  attempts.map((a) => a.attempt.outputTokens),
  attempts.map((a) => a.attempt.latencyMs),
  attempts.map((a) => a.attempt.modelCalls ?? 0),
  attempts.map((a) => a.attempt.costUsd ?? null),
];

// One statement text whatever the batch's size (createMany writes a VALUES list per size), so the
// embedded database's statement cache keeps one prepared statement for it.
export async function recordAttempts(tx: Tx, attempts: readonly AttemptRecordOf[]) {
  if (attempts.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO cell_runs (${ATTEMPT_RECORD_COLUMNS}) SELECT * FROM ${attemptRecordsFrom(1)}`,
    ...attemptRecordParams(attempts),
  );
}
