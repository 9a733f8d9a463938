-- Imports: a file taken in as a background job. The row is the job's queue entry (claimed under a
-- lease, so a dead worker's import is taken up again) and its progress: `lines_done` is the
-- number of data lines committed, written in the same transaction as each batch of rows, so a
-- resumed import starts exactly after the last committed batch.
CREATE TABLE "imports" (
  "id" TEXT PRIMARY KEY,
  "workspace_id" TEXT NOT NULL,
  "base_id" TEXT NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'queued',
  "format" TEXT NOT NULL,
  "file_name" TEXT NOT NULL,
  "size" BIGINT NOT NULL,
  "storage_path" TEXT NOT NULL,
  "options" JSONB NOT NULL,
  "plan" JSONB,
  "lines_total" INTEGER,
  "lines_done" INTEGER NOT NULL DEFAULT 0,
  "rows_read" INTEGER NOT NULL DEFAULT 0,
  "rows_created" INTEGER NOT NULL DEFAULT 0,
  "rows_updated" INTEGER NOT NULL DEFAULT 0,
  "rows_skipped" INTEGER NOT NULL DEFAULT 0,
  "created_columns" JSONB NOT NULL DEFAULT '[]',
  "ignored_columns" JSONB NOT NULL DEFAULT '[]',
  "errors" JSONB NOT NULL DEFAULT '[]',
  "run_id" TEXT,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "lease_owner" TEXT,
  "lease_until" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "started_at" TIMESTAMPTZ(3),
  "finished_at" TIMESTAMPTZ(3),
  CONSTRAINT "imports_base_id_fkey" FOREIGN KEY ("base_id") REFERENCES "bases"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "imports_base_id_created_at_idx" ON "imports" ("base_id", "created_at");
CREATE INDEX "imports_status_idx" ON "imports" ("status");
