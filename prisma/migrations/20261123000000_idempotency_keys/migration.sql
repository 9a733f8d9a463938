-- Idempotency-Key (IETF draft, as Stripe): the first answer to a POST is kept for 24 hours per
-- workspace and key, so that a retry, after a crash or on another worker, replays it instead of
-- doing the work again. status_code is null while the first request is still in flight.
CREATE TABLE "idempotency_keys" (
  "workspace_id" TEXT NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
  "key" TEXT NOT NULL,
  "fingerprint" TEXT NOT NULL,
  "status_code" INTEGER,
  "headers" TEXT,
  "body" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  PRIMARY KEY ("workspace_id", "key")
);
CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys" ("expires_at");
