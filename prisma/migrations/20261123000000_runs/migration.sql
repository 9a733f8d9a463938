-- Runs: every request that queues AI cells records a run, so it can be watched, paused, capped
-- and cancelled. A cell belongs to the last run that queued it (cells.run_id).
CREATE TABLE "runs" (
  "id" TEXT PRIMARY KEY,
  "workspace_id" TEXT NOT NULL,
  "base_id" TEXT NOT NULL,
  "trigger" TEXT NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'running',
  "cell_cost" INTEGER NOT NULL DEFAULT 0,
  "max_credits" INTEGER,
  "estimated_credits" INTEGER NOT NULL DEFAULT 0,
  "credits_spent" INTEGER NOT NULL DEFAULT 0,
  "paused_reason" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "finished_at" TIMESTAMPTZ(3)
);
CREATE INDEX "runs_base_id_created_at_idx" ON "runs" ("base_id", "created_at");
CREATE INDEX "runs_status_idx" ON "runs" ("status");

-- The run that last queued the cell, the hash of what a done cell was generated from, and the
-- value a queued cell had before (restored when its run is cancelled).
ALTER TABLE "cells" ADD COLUMN "run_id" TEXT;
ALTER TABLE "cells" ADD COLUMN "input_hash" TEXT;
ALTER TABLE "cells" ADD COLUMN "previous_value" TEXT;
CREATE INDEX "cells_run_id_status_available_at_idx" ON "cells" ("run_id", "status", "available_at");
-- Pending cells queued before runs existed: the claim serves them without a scan of the others.
CREATE INDEX "cells_unowned_pending_idx" ON "cells" ("available_at") WHERE "status" = 'pending' AND "run_id" IS NULL;
