import type { Tx } from "../db/database.ts";

// The relay's side of the outbox: claim due messages under a lease, hand them back. A pending
// message with a live lease is in flight somewhere; one whose lease ran out belongs to a process
// that died, and is claimed again. The lease value itself fences the outcome (see attempt-outcome.ts).

export interface ClaimedMessage {
  id: string;
  endpointId: string;
  body: string;
  /** Attempts made before this one. */
  attempts: number;
  manual: boolean;
  leaseUntil: Date;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

type Raw = {
  id: string;
  endpoint_id: string;
  body: string;
  attempts: number;
  manual: boolean;
  lease_until: Date;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
};

/**
 * Claims up to `limit` due messages of enabled endpoints, oldest due first, and never more than
 * `perEndpoint` in flight for one endpoint, counting those other processes hold: the bound is
 * per endpoint, not per relay.
 */
export async function claimMessages(
  tx: Tx,
  limit: number,
  perEndpoint: number,
  leaseMs: number,
): Promise<ClaimedMessage[]> {
  if (limit <= 0) return [];
  const rows = await tx.$queryRawUnsafe<Raw[]>(
    `WITH picked AS (
       SELECT d.id, d.endpoint_id FROM webhook_endpoints e
       CROSS JOIN LATERAL (
         SELECT count(*)::int AS n FROM webhook_messages b
         WHERE b.endpoint_id = e.id AND b.status = 'pending' AND b.lease_until > now()) busy
       CROSS JOIN LATERAL (
         SELECT m.id, m.endpoint_id, m.next_attempt_at, row_number() OVER (ORDER BY m.next_attempt_at, m.id) AS rn
         FROM webhook_messages m
         WHERE m.endpoint_id = e.id AND m.status = 'pending' AND m.next_attempt_at <= now()
           AND (m.lease_until IS NULL OR m.lease_until <= now())
         ORDER BY m.next_attempt_at, m.id
         LIMIT $2) d
       WHERE e.enabled AND d.rn <= $2 - busy.n
       ORDER BY d.next_attempt_at, d.id
       LIMIT $1)
     UPDATE webhook_messages m
       SET lease_until = now() + make_interval(secs => $3::double precision / 1000), updated_at = now()
     FROM picked JOIN webhook_endpoints e ON e.id = picked.endpoint_id
     WHERE m.id = picked.id AND e.enabled AND m.status = 'pending' AND (m.lease_until IS NULL OR m.lease_until <= now())
     RETURNING m.id, m.endpoint_id, m.body, m.attempts, m.manual, m.lease_until,
       e.url, e.secret, e.previous_secret, e.previous_secret_expires_at`,
    limit,
    perEndpoint,
    leaseMs,
  );
  return rows.map((r) => ({
    id: r.id,
    endpointId: r.endpoint_id,
    body: r.body,
    attempts: r.attempts,
    manual: r.manual,
    leaseUntil: r.lease_until,
    url: r.url,
    secret: r.secret,
    previousSecret: r.previous_secret,
    previousSecretExpiresAt: r.previous_secret_expires_at,
  }));
}

/** Hands a claimed message back untried (the relay is stopping). */
export async function releaseMessage(tx: Tx, m: Pick<ClaimedMessage, "id" | "leaseUntil">): Promise<void> {
  await tx.webhookMessage.updateMany({ where: { id: m.id, leaseUntil: m.leaseUntil }, data: { leaseUntil: null } });
}

/**
 * Embedded database only: one process owns it, so every lease is a dead process's. Hand them
 * back at once instead of waiting for them to run out.
 */
export async function releaseAllLeases(tx: Tx): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE webhook_messages SET lease_until = NULL WHERE status = 'pending' AND lease_until IS NOT NULL`,
  );
}
