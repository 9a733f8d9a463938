CREATE TABLE "workspaces" (
  "id" TEXT PRIMARY KEY,
  "name" TEXT NOT NULL,
  "credits" BIGINT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "workspaces_name_key" ON "workspaces"("name");

CREATE TABLE "api_keys" (
  "id" TEXT PRIMARY KEY,
  "workspace_id" TEXT NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "prefix" TEXT NOT NULL,
  "hash" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "last_used_at" TIMESTAMPTZ(3),
  "revoked_at" TIMESTAMPTZ(3)
);
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");
CREATE INDEX "api_keys_workspace_id_idx" ON "api_keys"("workspace_id");

CREATE TABLE "bases" (
  "id" TEXT PRIMARY KEY,
  "workspace_id" TEXT NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "settings" JSONB NOT NULL DEFAULT '{}',
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "bases_workspace_id_idx" ON "bases"("workspace_id");

CREATE TABLE "sheets" (
  "id" TEXT PRIMARY KEY,
  "base_id" TEXT NOT NULL REFERENCES "bases"("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL
);
CREATE UNIQUE INDEX "sheets_base_id_key" ON "sheets"("base_id");

CREATE TABLE "columns" (
  "id" TEXT PRIMARY KEY,
  "sheet_id" TEXT NOT NULL REFERENCES "sheets"("id") ON DELETE CASCADE,
  "position" INTEGER NOT NULL,
  "name" TEXT NOT NULL,
  "name_key" TEXT NOT NULL,
  "type" TEXT NOT NULL,
  "is_ai_enabled" BOOLEAN NOT NULL DEFAULT false,
  "is_primary" BOOLEAN NOT NULL DEFAULT false,
  "input_column_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
  "tools" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
  "instructions" TEXT NOT NULL DEFAULT '',
  "column_options" JSONB NOT NULL DEFAULT '{}',
  "config_version" INTEGER NOT NULL DEFAULT 1,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "columns_sheet_id_name_key_key" ON "columns"("sheet_id", "name_key");
CREATE INDEX "columns_sheet_id_position_idx" ON "columns"("sheet_id", "position");
-- A sheet has at most one primary column; the domain keeps it at exactly one.
CREATE UNIQUE INDEX "columns_one_primary_per_sheet" ON "columns"("sheet_id") WHERE "is_primary";

CREATE TABLE "rows" (
  "id" TEXT PRIMARY KEY,
  "sheet_id" TEXT NOT NULL REFERENCES "sheets"("id") ON DELETE CASCADE,
  "seq" BIGSERIAL NOT NULL,
  "values" JSONB NOT NULL DEFAULT '{}',
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "rows_sheet_id_seq_idx" ON "rows"("sheet_id", "seq");

CREATE TABLE "cells" (
  "row_id" TEXT NOT NULL REFERENCES "rows"("id") ON DELETE CASCADE,
  "column_id" TEXT NOT NULL REFERENCES "columns"("id") ON DELETE CASCADE,
  "sheet_id" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "generation" INTEGER NOT NULL DEFAULT 1,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "error_code" TEXT,
  "error_message" TEXT,
  "metadata" JSONB,
  "stale" BOOLEAN NOT NULL DEFAULT false,
  "available_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "lease_owner" TEXT,
  "lease_until" TIMESTAMPTZ(3),
  "started_at" TIMESTAMPTZ(3),
  "finished_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY ("row_id", "column_id")
);
CREATE INDEX "cells_sheet_id_idx" ON "cells"("sheet_id");
CREATE INDEX "cells_status_available_at_idx" ON "cells"("status", "available_at");

CREATE TABLE "cell_runs" (
  "id" TEXT PRIMARY KEY,
  "row_id" TEXT NOT NULL,
  "column_id" TEXT NOT NULL,
  "workspace_id" TEXT NOT NULL,
  "generation" INTEGER NOT NULL,
  "attempt" INTEGER NOT NULL,
  "provider" TEXT NOT NULL,
  "model" TEXT NOT NULL,
  "input_tokens" INTEGER NOT NULL DEFAULT 0,
  "output_tokens" INTEGER NOT NULL DEFAULT 0,
  "latency_ms" INTEGER NOT NULL DEFAULT 0,
  "cost_usd" DOUBLE PRECISION,
  "outcome" TEXT NOT NULL,
  "error_code" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "cell_runs_row_id_column_id_idx" ON "cell_runs"("row_id", "column_id");

CREATE TABLE "credit_entries" (
  "id" TEXT PRIMARY KEY,
  "workspace_id" TEXT NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
  "amount" INTEGER NOT NULL,
  "reason" TEXT NOT NULL,
  "base_id" TEXT,
  "row_id" TEXT,
  "column_id" TEXT,
  "idempotency_key" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "credit_entries_idempotency_key_key" ON "credit_entries"("idempotency_key");
CREATE INDEX "credit_entries_workspace_id_created_at_idx" ON "credit_entries"("workspace_id", "created_at");

CREATE TABLE "chat_messages" (
  "id" TEXT PRIMARY KEY,
  "base_id" TEXT NOT NULL REFERENCES "bases"("id") ON DELETE CASCADE,
  "seq" BIGSERIAL NOT NULL,
  "role" TEXT NOT NULL,
  "content" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "chat_messages_base_id_seq_idx" ON "chat_messages"("base_id", "seq");

CREATE TABLE "webhook_endpoints" (
  "id" TEXT PRIMARY KEY,
  "workspace_id" TEXT NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
  "base_id" TEXT REFERENCES "bases"("id") ON DELETE CASCADE,
  "url" TEXT NOT NULL,
  "events" TEXT[] NOT NULL,
  "expand" BOOLEAN NOT NULL DEFAULT false,
  "description" TEXT,
  "enabled" BOOLEAN NOT NULL DEFAULT true,
  "disabled_reason" TEXT,
  "secret" TEXT NOT NULL,
  "previous_secret" TEXT,
  "previous_secret_expires_at" TIMESTAMPTZ(3),
  "failing_since" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "webhook_endpoints_workspace_id_idx" ON "webhook_endpoints"("workspace_id");

CREATE TABLE "webhook_messages" (
  "id" TEXT PRIMARY KEY,
  "endpoint_id" TEXT NOT NULL REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE,
  "workspace_id" TEXT NOT NULL,
  "event_type" TEXT NOT NULL,
  "body" TEXT NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'pending',
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "lease_until" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "webhook_messages_status_next_attempt_at_idx" ON "webhook_messages"("status", "next_attempt_at");
CREATE INDEX "webhook_messages_endpoint_id_created_at_idx" ON "webhook_messages"("endpoint_id", "created_at");

CREATE TABLE "webhook_attempts" (
  "id" TEXT PRIMARY KEY,
  "message_id" TEXT NOT NULL REFERENCES "webhook_messages"("id") ON DELETE CASCADE,
  "endpoint_id" TEXT NOT NULL,
  "attempted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "status_code" INTEGER,
  "duration_ms" INTEGER NOT NULL,
  "success" BOOLEAN NOT NULL,
  "error" TEXT
);
CREATE INDEX "webhook_attempts_message_id_idx" ON "webhook_attempts"("message_id");

CREATE TABLE "files" (
  "id" TEXT PRIMARY KEY,
  "workspace_id" TEXT NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
  "base_id" TEXT NOT NULL REFERENCES "bases"("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "content_type" TEXT NOT NULL,
  "size" INTEGER NOT NULL,
  "sha256" TEXT NOT NULL,
  "storage_path" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "files_workspace_id_idx" ON "files"("workspace_id");

CREATE TABLE "search_cache" (
  "key" TEXT PRIMARY KEY,
  "results" JSONB NOT NULL,
  "expires_at" TIMESTAMPTZ(3) NOT NULL
);
