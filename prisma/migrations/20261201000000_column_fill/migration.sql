-- How a column fills itself when it is neither entered by hand nor AI-generated (a formula).
ALTER TABLE "columns" ADD COLUMN "fill" JSONB;
