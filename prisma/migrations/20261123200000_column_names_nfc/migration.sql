-- Column names are compared after Unicode NFC normalisation (and case-insensitively). Keys stored
-- before were only lower-cased, so a name typed in decomposed form (NFD) gets its NFC key here,
-- unless another column of the sheet already holds that key: that pair keeps its keys, and both
-- columns stay reachable by id.
UPDATE columns c SET name_key = normalize(c.name_key, NFC)
WHERE c.name_key IS NOT NFC NORMALIZED
  AND NOT EXISTS (
    SELECT 1 FROM columns o
    WHERE o.sheet_id = c.sheet_id AND o.id <> c.id AND o.name_key = normalize(c.name_key, NFC));
