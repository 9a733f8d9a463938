-- Cell history: every change of a cell's value or state, with its sources, confidence and actor.
-- One row per cell holds that cell's changes as a JSON array, oldest first. Each change differs
-- little from the one before it, so the array compresses well: the low toast_tuple_target has
-- PostgreSQL compress a row as soon as it passes 128 bytes, not 2 kB. One row per change would
-- cost a tuple header and three ids each, more than the change itself.

CREATE TABLE "cell_history" (
  "row_id" TEXT NOT NULL REFERENCES "rows"("id") ON DELETE CASCADE,
  "column_id" TEXT NOT NULL REFERENCES "columns"("id") ON DELETE CASCADE,
  "base_id" TEXT NOT NULL REFERENCES "bases"("id") ON DELETE CASCADE,
  "entries" JSONB NOT NULL,
  -- jsonb_array_length(entries), kept so that an append decompresses the array once, not twice.
  "entry_count" INTEGER NOT NULL,
  "last_run_id" TEXT,
  "oldest_at" TIMESTAMPTZ(3) NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY ("row_id", "column_id")
) WITH (toast_tuple_target = 128);

-- Revert a run: the cells whose last change is that run's.
CREATE INDEX "cell_history_last_run_id_idx" ON "cell_history" ("last_run_id");
-- Retention: the cells holding changes older than the cut-off.
CREATE INDEX "cell_history_oldest_at_idx" ON "cell_history" ("oldest_at");

-- When a generated cell's answer was last checked, and last changed (the changedSince filter).
ALTER TABLE "cells" ADD COLUMN "checked_at" TIMESTAMPTZ(3), ADD COLUMN "changed_at" TIMESTAMPTZ(3),
  -- The status a queued cell had before, as previous_value keeps its value: the history's "before".
  ADD COLUMN "previous_status" TEXT;
