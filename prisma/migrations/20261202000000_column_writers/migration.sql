-- The columns whose extra outputs a column reads (an HTTP column may write other columns of the
-- row): derived from the fills of the sheet whenever a column changes, and read by the queue's
-- readiness test beside input_column_ids, so a reader waits for the writer's cell.
ALTER TABLE "columns" ADD COLUMN "writer_column_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
