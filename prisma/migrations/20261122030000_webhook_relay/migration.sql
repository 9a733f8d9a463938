-- The webhook relay. A redelivery asked for by a user is one attempt with no automatic retries
-- after it, so the message remembers that its next attempt is manual.
ALTER TABLE "webhook_messages" ADD COLUMN "manual" BOOLEAN NOT NULL DEFAULT false;

-- The relay claims due messages endpoint by endpoint (bounded per endpoint), and counts the ones
-- in flight; only pending messages matter to either, so the index leaves the history out.
CREATE INDEX "webhook_messages_endpoint_due_idx" ON "webhook_messages"("endpoint_id", "next_attempt_at") WHERE "status" = 'pending';
