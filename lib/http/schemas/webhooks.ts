import { z } from "zod";
import { defineEndpoint, intQuery, pathId, secretField } from "../endpoint.ts";
import { cursorQuery, isoDate, nullableIsoDate } from "./common.ts";
import {
  createEndpointSchema,
  rotateSecretSchema,
  updateEndpointSchema,
  WEBHOOK_EVENTS,
} from "../../webhooks/endpoints.ts";
import { DELIVERY_STATUSES } from "../../webhooks/deliveries.ts";

// Webhook endpoints, their delivery log, redelivery and secret rotation.

const webhookId = pathId("The webhook endpoint's id (wh_…).", "webhook_not_found");
const webhookParams = z.object({ webhookId });

const endpointShape = {
  id: z.string().describe("The endpoint's id (wh_…)."),
  url: z.string().describe("The receiver's URL."),
  events: z.array(z.enum(WEBHOOK_EVENTS)).describe("The events it receives."),
  baseId: z.string().nullable().describe("Only events of this base; null for every base."),
  expand: z.boolean().describe("Whether payloads carry cell metadata."),
  description: z.string().nullable().describe("A note for people."),
  enabled: z.boolean().describe("Whether deliveries are made."),
  disabledReason: z.string().nullable().describe("Why it was disabled automatically, if it was."),
  failingSince: nullableIsoDate("Since when deliveries fail"),
  previousSecretExpiresAt: nullableIsoDate("Until when the previous secret signs too"),
  createdAt: isoDate("When it was registered"),
  updatedAt: isoDate("When it last changed"),
};
// What a webhook's audit entries keep: never its secret, nor its URL (which may carry a token).
const WEBHOOK_AUDIT_FIELDS = ["events", "baseId", "expand", "enabled", "description"] as const;

const endpointSchema = z.strictObject(endpointShape).describe("A webhook endpoint, without its secret.");
const withSecret = z
  .strictObject({
    ...endpointShape,
    secret: secretField(
      "The signing secret (whsec_…); shown here and after rotation only, and null in a replay of the request.",
    ),
  })
  .describe("A webhook endpoint with its signing secret.");

const deliveryView = z
  .strictObject({
    id: z.string().describe("The delivery's id: the webhook-id header (msg_…)."),
    eventType: z.string().describe("The event."),
    status: z.enum(DELIVERY_STATUSES).describe("pending, succeeded or failed."),
    attemptCount: z.number().int().min(0).describe("How many attempts were made."),
    nextAttemptAt: nullableIsoDate("When the next attempt is due, while pending"),
    createdAt: isoDate("When the event happened"),
    updatedAt: isoDate("When the delivery last changed"),
    attempts: z
      .array(
        z
          .strictObject({
            id: z.string().describe("The attempt's id."),
            attemptedAt: isoDate("When"),
            status: z.enum(["succeeded", "failed"]).describe("The outcome."),
            statusCode: z.number().int().nullable().describe("The receiver's HTTP status, if it answered."),
            durationMs: z.number().int().min(0).nullable().describe("How long the attempt took."),
            error: z.string().nullable().describe("What went wrong, if anything."),
          })
          .describe("One attempt."),
      )
      .describe("Every attempt, oldest first."),
  })
  .describe("One delivery of an event to the endpoint.");

export const listWebhooks = defineEndpoint({
  method: "GET",
  path: "/api/v1/webhooks",
  scope: "webhooks:manage",
  allBases: true,
  summary: "List webhook endpoints",
  response: z.strictObject({ webhooks: z.array(endpointSchema).describe("The workspace's endpoints, oldest first.") }),
});

export const createWebhook = defineEndpoint({
  method: "POST",
  path: "/api/v1/webhooks",
  scope: "webhooks:manage",
  allBases: true,
  audit: { action: "webhook.create", target: "webhook", fields: WEBHOOK_AUDIT_FIELDS },
  summary: "Register a webhook endpoint",
  body: createEndpointSchema.describe("The new endpoint."),
  status: 201,
  response: withSecret,
});

export const getWebhook = defineEndpoint({
  method: "GET",
  path: "/api/v1/webhooks/{webhookId}",
  scope: "webhooks:manage",
  allBases: true,
  summary: "Get a webhook endpoint",
  params: webhookParams,
  response: endpointSchema,
});

export const updateWebhook = defineEndpoint({
  method: "PATCH",
  path: "/api/v1/webhooks/{webhookId}",
  scope: "webhooks:manage",
  allBases: true,
  audit: { action: "webhook.update", target: "webhook", fields: WEBHOOK_AUDIT_FIELDS },
  summary: "Change a webhook endpoint",
  params: webhookParams,
  body: updateEndpointSchema.describe("The fields to change."),
  response: endpointSchema,
});

export const deleteWebhook = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/webhooks/{webhookId}",
  scope: "webhooks:manage",
  allBases: true,
  audit: { action: "webhook.delete", target: "webhook" },
  summary: "Delete a webhook endpoint",
  params: webhookParams,
  response: z.strictObject({
    id: z.string().describe("The endpoint's id."),
    deleted: z.literal(true).describe("Always true."),
  }),
});

export const rotateWebhookSecret = defineEndpoint({
  method: "POST",
  path: "/api/v1/webhooks/{webhookId}/rotate-secret",
  scope: "webhooks:manage",
  allBases: true,
  audit: { action: "webhook.rotate_secret", target: "webhook" },
  summary: "Rotate the signing secret",
  description: "For the grace period the old secret signs too; without a body, 24 hours.",
  params: webhookParams,
  body: rotateSecretSchema.describe("The grace period."),
  bodyType: "optional-json",
  response: withSecret,
});

export const listDeliveries = defineEndpoint({
  method: "GET",
  path: "/api/v1/webhooks/{webhookId}/deliveries",
  scope: "webhooks:manage",
  allBases: true,
  summary: "The delivery log of an endpoint",
  description: "Newest first, each with every attempt; paged.",
  params: webhookParams,
  query: z.object({
    limit: intQuery("limit", 1, 100, "Page size, 1 to 100; default 20.").transform((v) => v ?? 20),
    cursor: cursorQuery("deliveries"),
    status: z
      .enum(DELIVERY_STATUSES, { error: `status must be one of ${DELIVERY_STATUSES.join(", ")}.` })
      .optional()
      .describe("Only deliveries in this state."),
  }),
  response: z.strictObject({
    deliveries: z.array(deliveryView).describe("The deliveries, newest first."),
    nextCursor: z.string().nullable().describe("The cursor of the next page; null on the last page."),
  }),
});

export const redeliver = defineEndpoint({
  method: "POST",
  path: "/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver",
  scope: "webhooks:manage",
  allBases: true,
  summary: "Send a delivery again",
  params: z.object({ webhookId, deliveryId: pathId("The delivery's id (msg_…).", "delivery_not_found") }),
  status: 202,
  response: deliveryView,
});
