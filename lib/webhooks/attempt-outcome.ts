import type { Prisma } from "../db/database.ts";
import { newId } from "../ids.ts";
import type { ClaimedMessage } from "./claim-messages.ts";
import { nextRetryDelayMs } from "./retry.ts";

// Records one delivery attempt and decides what follows: done, retry later, failed for good,
// or the endpoint disabled.

export interface AttemptResult {
  startedAt: Date;
  statusCode: number | null;
  durationMs: number;
  success: boolean;
  error: string | null;
  /** From the receiver's Retry-After header. */
  retryAfterMs?: number;
}

export interface OutcomePolicy {
  scheduleMs: readonly number[];
  /** An endpoint failing without a single success for this long is disabled. */
  failureDisableMs: number;
  random?: () => number;
}

export const GONE_REASON = "The endpoint answered 410 Gone.";
export const failingReason = (ms: number) => `Every delivery failed for ${formatDuration(ms)}.`;

/** What became of the message; "stale" when another relay had taken it over meanwhile. */
export type MessageOutcome = "succeeded" | "retry" | "failed" | "stale";

export async function recordAttempt(
  prisma: Prisma,
  msg: ClaimedMessage,
  result: AttemptResult,
  policy: OutcomePolicy,
): Promise<MessageOutcome> {
  return prisma.$transaction(async (tx) => {
    // Endpoint first, then message: the order in which deleting an endpoint (cascading to its
    // messages) takes its locks, so the two cannot deadlock. Gone with its endpoint: nothing to log.
    const endpoint = await tx.$queryRawUnsafe<unknown[]>(
      `SELECT id FROM webhook_endpoints WHERE id = $1 FOR NO KEY UPDATE`,
      msg.endpointId,
    );
    if (endpoint.length === 0) return "stale";
    const now = new Date();
    const attempts = msg.attempts + 1;
    const gone = result.statusCode === 410;
    const delay =
      result.success || gone || msg.manual
        ? null
        : nextRetryDelayMs({
            schedule: policy.scheduleMs,
            attemptsMade: attempts,
            retryAfterMs: result.retryAfterMs,
            random: policy.random,
          });
    const outcome: MessageOutcome = result.success ? "succeeded" : delay === null ? "failed" : "retry";

    // The lease we claimed under fences the update: if it ran out and another relay took the
    // message, that relay owns its state now (our attempt is still logged: it happened).
    const { count } = await tx.webhookMessage.updateMany({
      where: { id: msg.id, status: "pending", leaseUntil: msg.leaseUntil },
      data: {
        status: outcome === "retry" ? "pending" : outcome,
        attempts,
        manual: false,
        leaseUntil: null,
        ...(delay === null ? {} : { nextAttemptAt: new Date(now.getTime() + delay) }),
        updatedAt: now,
      },
    });
    await tx.webhookAttempt.create({
      data: {
        id: newId.webhookAttempt(),
        messageId: msg.id,
        endpointId: msg.endpointId,
        attemptedAt: result.startedAt,
        statusCode: result.statusCode,
        durationMs: Math.round(result.durationMs),
        success: result.success,
        error: result.error?.slice(0, 1_000) ?? null,
      },
    });

    if (result.success) {
      await tx.webhookEndpoint.updateMany({
        where: { id: msg.endpointId, failingSince: { not: null } },
        data: { failingSince: null },
      });
    } else if (gone) {
      await tx.webhookEndpoint.updateMany({
        where: { id: msg.endpointId, enabled: true },
        data: { enabled: false, disabledReason: GONE_REASON, updatedAt: now },
      });
    } else {
      await tx.webhookEndpoint.updateMany({
        where: { id: msg.endpointId, failingSince: null },
        data: { failingSince: now },
      });
      await tx.webhookEndpoint.updateMany({
        where: {
          id: msg.endpointId,
          enabled: true,
          failingSince: { lte: new Date(now.getTime() - policy.failureDisableMs) },
        },
        data: { enabled: false, disabledReason: failingReason(policy.failureDisableMs), updatedAt: now },
      });
    }
    return count === 0 ? "stale" : outcome;
  });
}

function formatDuration(ms: number): string {
  const days = ms / 86_400_000;
  if (days >= 1 && Number.isInteger(days)) return `${days} day${days === 1 ? "" : "s"}`;
  const hours = ms / 3_600_000;
  if (hours >= 1 && Number.isInteger(hours)) return `${hours} hour${hours === 1 ? "" : "s"}`;
  return `${Math.round(ms / 1000)} seconds`;
}
