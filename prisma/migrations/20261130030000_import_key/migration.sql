-- The API key that started an import: the import's run is charged to it, within its daily cap.
ALTER TABLE imports ADD COLUMN key_id TEXT;
