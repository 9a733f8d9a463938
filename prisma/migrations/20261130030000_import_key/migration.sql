-- The API key that started an import: the import's run is charged to it, within its daily cap.
ALTER TABLE import_jobs ADD COLUMN key_id TEXT;
