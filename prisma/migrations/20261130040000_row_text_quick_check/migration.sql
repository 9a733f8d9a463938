-- The rows' search text (rows.search_text, generated from "values") skips NFC normalization when
-- the text is already in NFC, as nearly all text is: `IS NFC NORMALIZED` answers most text by a
-- quick check, and is true only when normalize() would return the text unchanged, so every
-- search text stays exactly what it was. normalize() itself rebuilds the text code point by code
-- point whatever it holds, which was most of a row's write (COPY of 30,000 rows of 8 columns:
-- 5.6–6.9 s with it, 3.7–3.9 s with the check, 1.5–2.8 s without the search text at all).
-- Stored search texts need no rewrite: the function's result is the same for every input.
CREATE OR REPLACE FUNCTION cw_row_text(v JSONB) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT CASE WHEN t IS NFC NORMALIZED THEN lower(t) ELSE lower(normalize(t, NFC)) END
     FROM (SELECT COALESCE(string_agg(value, E'\x1f'), '') AS t FROM jsonb_each_text(v)) joined $$;
