import type { Tx } from "../db/database.ts";

/**
 * Deletes up to `limit` webhook messages last touched before `before`, with their attempts. A
 * message being delivered right now (leased) is left for the next pass; a redelivery a user asks
 * for touches the message, so it starts a new period.
 */
export async function pruneWebhookMessages(
  tx: Tx,
  before: Date,
  limit: number,
): Promise<{ messages: number; attempts: number }> {
  const [row] = await tx.$queryRawUnsafe<{ messages: number; attempts: number }[]>(
    `WITH gone AS (
       DELETE FROM webhook_messages WHERE id IN (
         SELECT id FROM webhook_messages WHERE updated_at < $1 AND (lease_until IS NULL OR lease_until < now()) LIMIT $2)
       RETURNING id),
     att AS (DELETE FROM webhook_attempts WHERE message_id IN (SELECT id FROM gone) RETURNING 1)
     SELECT (SELECT count(*) FROM gone)::int AS messages, (SELECT count(*) FROM att)::int AS attempts`,
    before,
    limit,
  );
  return { messages: Number(row.messages), attempts: Number(row.attempts) };
}
