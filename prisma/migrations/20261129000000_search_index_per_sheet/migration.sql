-- Search's trigram index was one index over every row of every base: each row written paid for
-- it (its generated text's trigrams, a hundred or more a row, inserted one by one into a shared
-- GIN), whatever the size of its base, and that was 93% of a bulk import's time on PostgreSQL.
-- A small sheet's search reads its rows through (sheet_id, seq) and needs no index; a large one
-- now gets its own partial index, built in one pass once it is large, and after an import rather
-- than row by row during it (lib/db/sheet-indexes.ts).
DROP INDEX IF EXISTS rows_search_trgm_idx;
