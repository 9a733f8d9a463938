import type { Tx } from "../db/database.ts";
import type { Work } from "../db/work.ts";
import type { WebhookAttempt, WebhookMessage } from "../db/generated/client.ts";
import { appError } from "../errors.ts";
import { loadEndpoint } from "./endpoints.ts";

// The delivery log of an endpoint: one delivery per message (its id is the webhook-id header),
// newest first, each with every attempt made. And redelivery on request.

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Parsed at the edge (lib/http/schemas/webhooks.ts). */
export interface DeliveriesQuery {
  limit: number;
  cursor?: string;
  status?: DeliveryStatus;
}

const encodeCursor = (m: Pick<WebhookMessage, "createdAt" | "id">) =>
  Buffer.from(`${m.createdAt.toISOString()}|${m.id}`).toString("base64url");

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const m = /^(\d{4}-\d\d-\d\dT[\d:.]+Z)\|(msg_\w+)$/.exec(Buffer.from(cursor, "base64url").toString());
  const createdAt = new Date(m?.[1] ?? Number.NaN);
  if (!m || Number.isNaN(createdAt.getTime()))
    throw appError("invalid_cursor", "cursor is not a cursor this API returned.");
  return { createdAt, id: m[2] };
}

function toAttemptView(a: WebhookAttempt) {
  return {
    id: a.id,
    attemptedAt: a.attemptedAt,
    status: a.success ? "succeeded" : "failed",
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    error: a.error,
  };
}

function toDeliveryView(m: WebhookMessage, attempts: WebhookAttempt[]) {
  return {
    id: m.id,
    eventType: m.eventType,
    status: m.status as DeliveryStatus,
    attemptCount: attempts.length,
    nextAttemptAt: m.status === "pending" ? m.nextAttemptAt : null,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    attempts: attempts.map(toAttemptView),
  };
}

export async function listDeliveries(tx: Tx, workspaceId: string, endpointId: string, q: DeliveriesQuery) {
  await loadEndpoint(tx, workspaceId, endpointId);
  const after = q.cursor ? decodeCursor(q.cursor) : undefined;
  const messages = await tx.webhookMessage.findMany({
    where: {
      endpointId,
      ...(q.status ? { status: q.status } : {}),
      ...(after
        ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
  });
  const page = messages.slice(0, q.limit);
  const attempts = await tx.webhookAttempt.findMany({
    where: { messageId: { in: page.map((m) => m.id) } },
    orderBy: [{ attemptedAt: "asc" }, { id: "asc" }],
  });
  const byMessage = new Map<string, WebhookAttempt[]>();
  for (const a of attempts) byMessage.set(a.messageId, [...(byMessage.get(a.messageId) ?? []), a]);
  return {
    deliveries: page.map((m) => toDeliveryView(m, byMessage.get(m.id) ?? [])),
    nextCursor: messages.length > q.limit ? encodeCursor(page[page.length - 1]) : null,
  };
}

/**
 * Sends a delivery again, soon, with the same webhook-id and body (receivers that already have
 * it can recognise it). A finished delivery gets one attempt and no automatic retries after it;
 * a pending one is just brought forward.
 */
export async function redeliver(w: Work, workspaceId: string, endpointId: string, deliveryId: string) {
  await loadEndpoint(w.tx, workspaceId, endpointId);
  const m = await w.tx.webhookMessage.findFirst({ where: { id: deliveryId, endpointId } });
  if (!m) throw appError("delivery_not_found", `No delivery "${deliveryId}" for this endpoint.`);
  const now = new Date();
  const updated = await w.tx.webhookMessage.update({
    where: { id: m.id },
    data:
      m.status === "pending"
        ? { nextAttemptAt: now, updatedAt: now }
        : { status: "pending", manual: true, nextAttemptAt: now, leaseUntil: null, updatedAt: now },
  });
  w.emit({ type: "webhooks.queued" });
  const attempts = await w.tx.webhookAttempt.findMany({
    where: { messageId: m.id },
    orderBy: [{ attemptedAt: "asc" }, { id: "asc" }],
  });
  return toDeliveryView(updated, attempts);
}
