-- Schedules: a base's cells refreshed (or new rows found) on a cron or every N seconds. Each
-- execution is a run (trigger "schedule") that names its schedule. The scheduler claims a due tick
-- by moving next_run_at on with a compare-and-set, so on PostgreSQL one process runs each tick.

CREATE TABLE "schedules" (
  "id" TEXT PRIMARY KEY,
  "workspace_id" TEXT NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
  "base_id" TEXT NOT NULL REFERENCES "bases"("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "cron" TEXT,
  "timezone" TEXT NOT NULL DEFAULT 'UTC',
  "every_seconds" INTEGER,
  "behavior" TEXT NOT NULL DEFAULT 'refresh',
  "column_ids" JSONB,
  "rows" JSONB NOT NULL DEFAULT '{"all": true}',
  "find" JSONB,
  "max_credits" INTEGER,
  "enabled" BOOLEAN NOT NULL DEFAULT true,
  "next_run_at" TIMESTAMPTZ(3),
  "last_run_at" TIMESTAMPTZ(3),
  "last_run_id" TEXT,
  "last_status" TEXT,
  "last_error" TEXT,
  "skipped_count" INTEGER NOT NULL DEFAULT 0,
  "last_skipped_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "schedules_one_cadence" CHECK (("cron" IS NULL) <> ("every_seconds" IS NULL))
);
CREATE INDEX "schedules_base_id_created_at_idx" ON "schedules" ("base_id", "created_at");
-- The scheduler's question: the earliest enabled tick.
CREATE INDEX "schedules_due_idx" ON "schedules" ("next_run_at") WHERE "enabled";

-- The schedule that started a run, if one did.
ALTER TABLE "runs" ADD COLUMN "schedule_id" TEXT;
CREATE INDEX "runs_schedule_id_idx" ON "runs" ("schedule_id", "created_at");
