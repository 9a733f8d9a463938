-- Find rows: a base fills itself from a description. A find is also a run (trigger "find"); its
-- candidates are the find worker's queue, claimed under a lease like cells, and keyed per base by
-- their canonical key, so no find of the base ever verifies (or adds) the same entity twice.

CREATE TABLE "finds" (
  "id" TEXT PRIMARY KEY,
  "workspace_id" TEXT NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
  "base_id" TEXT NOT NULL REFERENCES "bases"("id") ON DELETE CASCADE,
  "run_id" TEXT NOT NULL,
  "query" TEXT NOT NULL,
  "criteria" JSONB NOT NULL,
  "entity" JSONB,
  "target" INTEGER NOT NULL,
  "include_unclear" BOOLEAN NOT NULL DEFAULT false,
  "exclude_existing" BOOLEAN NOT NULL DEFAULT true,
  "preview" BOOLEAN NOT NULL DEFAULT false,
  "phase" TEXT NOT NULL DEFAULT 'plan',
  "stop_reason" TEXT,
  "queries" JSONB NOT NULL DEFAULT '[]',
  "credits_spent" INTEGER NOT NULL DEFAULT 0,
  "error_code" TEXT,
  "error_message" TEXT,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "available_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "lease_owner" TEXT,
  "lease_until" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "finished_at" TIMESTAMPTZ(3)
);
CREATE INDEX "finds_base_id_created_at_idx" ON "finds" ("base_id", "created_at");
CREATE INDEX "finds_run_id_idx" ON "finds" ("run_id");
-- The worker's claim: finds with work left.
CREATE INDEX "finds_open_idx" ON "finds" ("available_at") WHERE "phase" <> 'done';

CREATE TABLE "find_candidates" (
  "id" TEXT PRIMARY KEY,
  "find_id" TEXT NOT NULL REFERENCES "finds"("id") ON DELETE CASCADE,
  "base_id" TEXT NOT NULL,
  "run_id" TEXT NOT NULL,
  "key" TEXT NOT NULL,
  "name_key" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "url" TEXT,
  "snippet" TEXT,
  "query" TEXT,
  "status" TEXT NOT NULL DEFAULT 'pending',
  "verdicts" JSONB,
  "values" JSONB,
  "row_id" TEXT,
  "credits" INTEGER NOT NULL DEFAULT 0,
  "error_code" TEXT,
  "error_message" TEXT,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "lease_owner" TEXT,
  "lease_until" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "finished_at" TIMESTAMPTZ(3)
);
CREATE UNIQUE INDEX "find_candidates_base_id_key_key" ON "find_candidates" ("base_id", "key");
CREATE INDEX "find_candidates_base_id_name_key_idx" ON "find_candidates" ("base_id", "name_key");
CREATE INDEX "find_candidates_find_id_status_idx" ON "find_candidates" ("find_id", "status");
CREATE INDEX "find_candidates_run_id_status_idx" ON "find_candidates" ("run_id", "status");
