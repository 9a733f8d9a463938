-- A generated column's run condition (runIf): a filter tree of the Query Rows grammar whose
-- conditions name columns by id, so renames keep it. NULL: the column runs for every row.
ALTER TABLE "columns" ADD COLUMN "run_if" JSONB;
