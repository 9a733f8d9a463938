-- Column quality: the calibration fit of each AI column, the review history read per column, and
-- evaluations (a column regenerated blind on its verified rows) with their per-row results.

ALTER TABLE "columns" ADD COLUMN "calibration" JSONB;
CREATE INDEX "review_actions_column_id_row_id_created_at_idx" ON "review_actions" ("column_id", "row_id", "created_at");

CREATE TABLE "evaluations" (
  "id" TEXT PRIMARY KEY,
  "workspace_id" TEXT NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
  "base_id" TEXT NOT NULL REFERENCES "bases"("id") ON DELETE CASCADE,
  "column_id" TEXT NOT NULL,
  "run_id" TEXT NOT NULL,
  "settings" JSONB NOT NULL,
  "estimated_credits" INTEGER NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "applied_at" TIMESTAMPTZ(3)
);
CREATE INDEX "evaluations_column_id_created_at_idx" ON "evaluations" ("column_id", "created_at");

CREATE TABLE "evaluation_items" (
  "evaluation_id" TEXT NOT NULL REFERENCES "evaluations"("id") ON DELETE CASCADE,
  "row_id" TEXT NOT NULL,
  "run_id" TEXT NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'pending',
  "expected" TEXT NOT NULL,
  "previous_value" TEXT,
  "previous_correct" BOOLEAN,
  "got" TEXT,
  "correct" BOOLEAN,
  "confidence" DOUBLE PRECISION,
  "reason" TEXT,
  "error_code" TEXT,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "available_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "lease_owner" TEXT,
  "lease_until" TIMESTAMPTZ(3),
  "finished_at" TIMESTAMPTZ(3),
  PRIMARY KEY ("evaluation_id", "row_id")
);
CREATE INDEX "evaluation_items_run_id_status_idx" ON "evaluation_items" ("run_id", "status");
-- The worker's claim: the oldest ready item of a running run.
CREATE INDEX "evaluation_items_ready_idx" ON "evaluation_items" ("available_at") WHERE "status" = 'pending';
