-- Find and review: cells a reviewer verified, saved views, the review history, and the indexes
-- that keep filtered, sorted and searched reads off a full scan of large sheets.

ALTER TABLE "cells" ADD COLUMN "verified" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "cells" ADD COLUMN "reviewed_at" TIMESTAMPTZ(3);
-- The worked examples of a column are among its verified cells: a few per column, so a partial
-- index finds them without reading the column's other cells.
CREATE INDEX "cells_verified_column_idx" ON "cells"("column_id", "reviewed_at") WHERE "verified";

CREATE TABLE "views" (
  "id" TEXT PRIMARY KEY,
  "base_id" TEXT NOT NULL REFERENCES "bases"("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "is_default" BOOLEAN NOT NULL DEFAULT false,
  "filter" JSONB,
  "sort" JSONB NOT NULL DEFAULT '[]',
  "search" TEXT NOT NULL DEFAULT '',
  "hidden_column_ids" TEXT[] NOT NULL DEFAULT '{}',
  "column_widths" JSONB NOT NULL DEFAULT '{}',
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "views_base_id_idx" ON "views"("base_id");
-- Exactly one default view ("All rows") per base.
CREATE UNIQUE INDEX "views_one_default_per_base" ON "views"("base_id") WHERE "is_default";

CREATE TABLE "review_actions" (
  "id" TEXT PRIMARY KEY,
  "workspace_id" TEXT NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
  "base_id" TEXT NOT NULL REFERENCES "bases"("id") ON DELETE CASCADE,
  "row_id" TEXT NOT NULL,
  "column_id" TEXT NOT NULL,
  "action" TEXT NOT NULL,
  "actor_key_id" TEXT NOT NULL,
  "before" JSONB NOT NULL,
  "after" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "review_actions_base_id_created_at_idx" ON "review_actions"("base_id", "created_at");

-- Search matches a substring of any cell of a row: one lower-cased, NFC-normalised text of the
-- row's values, under a trigram index. Cells are joined by the unit separator, which a search
-- term never contains, so a match never spans two cells.
CREATE FUNCTION cw_row_text(v JSONB) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT lower(normalize(COALESCE(string_agg(value, E'\x1f'), ''), NFC)) FROM jsonb_each_text(v) $$;
-- Stored, so that a search re-checks the index's candidates by reading text instead of folding
-- every candidate row's values again (most of a search's time on PGlite without it).
ALTER TABLE "rows" ADD COLUMN "search_text" TEXT GENERATED ALWAYS AS (cw_row_text("values")) STORED;

-- pg_trgm ships with PGlite and with PostgreSQL's contrib. A server without it still searches
-- (a scan), so its absence does not fail the migration.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXECUTE 'CREATE INDEX rows_search_trgm_idx ON rows USING gin (search_text gin_trgm_ops)';
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available: search runs without its index';
END $$;
