-- Browser sessions: signing in exchanges an API key for a random cookie token. Only the token's
-- sha256 is stored, and a session lives no longer than the key it came from.
CREATE TABLE "sessions" (
  "token_hash" TEXT PRIMARY KEY,
  "key_id" TEXT NOT NULL REFERENCES "api_keys"("id") ON DELETE CASCADE,
  "workspace_id" TEXT NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expires_at" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "sessions_key_id_idx" ON "sessions"("key_id");
CREATE INDEX "sessions_expires_at_idx" ON "sessions"("expires_at");
