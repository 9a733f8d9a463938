import { z } from "zod";
import type { Config } from "../config.ts";
import type { Tx } from "../db/database.ts";
import type { WebhookEndpoint } from "../db/generated/client.ts";
import { appError, isAppError } from "../errors.ts";
import { newId } from "../ids.ts";
import { assertPublicUrl, type GuardOptions, type HostLookup } from "../net/index.ts";
import { loadBase } from "../domain/bases.ts";
import { generateSecret } from "./signing.ts";

// Webhook endpoints of a workspace: registration, management and secret rotation.

export const WEBHOOK_EVENTS = ["row.sheet.processed"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const DEFAULT_GRACE_SECONDS = 24 * 60 * 60;

const eventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS, { error: `Unknown event; known events: ${WEBHOOK_EVENTS.join(", ")}.` }))
  .min(1, "Subscribe to at least one event.")
  .max(20)
  .transform((events) => [...new Set(events)]);
const urlSchema = z.string().trim().min(1).max(2_048);
const baseIdSchema = z.string().trim().min(1).max(100).nullable();
const descriptionSchema = z.string().trim().max(500).nullable();

export const createEndpointSchema = z
  .object({
    url: urlSchema,
    events: eventsSchema,
    baseId: baseIdSchema.optional(),
    expand: z.boolean().default(false),
    description: descriptionSchema.optional(),
    enabled: z.boolean().default(true),
  })
  .strict();

export const updateEndpointSchema = z
  .object({
    url: urlSchema,
    events: eventsSchema,
    baseId: baseIdSchema,
    expand: z.boolean(),
    description: descriptionSchema,
    enabled: z.boolean(),
  })
  .partial()
  .strict();

export const rotateSecretSchema = z
  .object({ gracePeriodSeconds: z.number().int().min(0).max(7 * DEFAULT_GRACE_SECONDS).default(DEFAULT_GRACE_SECONDS) })
  .strict();

export type CreateEndpointInput = z.infer<typeof createEndpointSchema>;
export type UpdateEndpointInput = z.infer<typeof updateEndpointSchema>;

export interface EndpointDeps {
  db: { prisma: Tx };
  config: Config;
}

/** Tests only: resolve hostnames with a fake DNS. */
export interface EndpointOptions {
  lookup?: HostLookup;
}

export function webhookGuard(config: Config, lookup?: HostLookup): GuardOptions {
  return { allowPrivateNetwork: config.fetch.allowPrivateNetwork, ...(lookup ? { lookup } : {}) };
}

/** The URL must be http(s) and resolve to public addresses now; delivery checks it again. */
async function vetEndpointUrl(raw: string, guard: GuardOptions): Promise<string> {
  try {
    return (await assertPublicUrl(raw, guard)).href;
  } catch (e) {
    // An unresolvable host is a mistake in the request, not a failing upstream.
    if (isAppError(e) && e.code === "fetch_failed") throw appError("validation_failed", e.message, { url: raw });
    throw e;
  }
}

export function toEndpointView(e: WebhookEndpoint, now = new Date()) {
  const graceLive = e.previousSecret !== null && e.previousSecretExpiresAt !== null && e.previousSecretExpiresAt > now;
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    baseId: e.baseId,
    expand: e.expand,
    description: e.description,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    failingSince: e.failingSince,
    previousSecretExpiresAt: graceLive ? e.previousSecretExpiresAt : null,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

export type EndpointView = ReturnType<typeof toEndpointView>;

/** Finds an endpoint of this workspace; another workspace's endpoint is indistinguishable from none. */
export async function loadEndpoint(tx: Tx, workspaceId: string, id: string): Promise<WebhookEndpoint> {
  const e = await tx.webhookEndpoint.findFirst({ where: { id, workspaceId } });
  if (!e) throw appError("webhook_not_found", `No webhook endpoint "${id}" in this workspace.`);
  return e;
}

/** Registers an endpoint. The secret is in this answer and in rotate-secret's, nowhere else. */
export async function createEndpoint(rt: EndpointDeps, workspaceId: string, input: CreateEndpointInput, opts: EndpointOptions = {}) {
  const prisma = rt.db.prisma;
  const url = await vetEndpointUrl(input.url, webhookGuard(rt.config, opts.lookup));
  if (input.baseId) await loadBase(prisma, workspaceId, input.baseId);
  const secret = generateSecret();
  const row = await prisma.webhookEndpoint.create({
    data: {
      id: newId.webhook(),
      workspaceId,
      baseId: input.baseId ?? null,
      url,
      events: input.events,
      expand: input.expand,
      description: input.description ?? null,
      enabled: input.enabled,
      secret,
    },
  });
  return { ...toEndpointView(row), secret };
}

export async function listEndpoints(tx: Tx, workspaceId: string): Promise<EndpointView[]> {
  const rows = await tx.webhookEndpoint.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map((r) => toEndpointView(r));
}

export async function getEndpoint(tx: Tx, workspaceId: string, id: string): Promise<EndpointView> {
  return toEndpointView(await loadEndpoint(tx, workspaceId, id));
}

export async function updateEndpoint(rt: EndpointDeps, workspaceId: string, id: string, input: UpdateEndpointInput, opts: EndpointOptions = {}) {
  const prisma = rt.db.prisma;
  await loadEndpoint(prisma, workspaceId, id);
  const url = input.url === undefined ? undefined : await vetEndpointUrl(input.url, webhookGuard(rt.config, opts.lookup));
  if (input.baseId) await loadBase(prisma, workspaceId, input.baseId);
  const row = await prisma.webhookEndpoint.update({
    where: { id },
    data: {
      ...(url === undefined ? {} : { url }),
      ...(input.events === undefined ? {} : { events: input.events }),
      ...(input.baseId === undefined ? {} : { baseId: input.baseId }),
      ...(input.expand === undefined ? {} : { expand: input.expand }),
      ...(input.description === undefined ? {} : { description: input.description }),
      // Enabling again forgets why it was disabled, and the failure streak starts over.
      ...(input.enabled === undefined ? {} : { enabled: input.enabled, disabledReason: null, failingSince: null }),
      updatedAt: new Date(),
    },
  });
  return toEndpointView(row);
}

export async function deleteEndpoint(tx: Tx, workspaceId: string, id: string) {
  const { count } = await tx.webhookEndpoint.deleteMany({ where: { id, workspaceId } });
  if (count === 0) throw appError("webhook_not_found", `No webhook endpoint "${id}" in this workspace.`);
  return { id, deleted: true };
}

/**
 * Replaces the secret. For the grace period the old secret signs too (both signatures in one
 * header), so receivers can switch over without dropping a delivery. A rotation during a grace
 * period ends the older grace: only the secret being replaced stays live.
 */
export async function rotateSecret(tx: Tx, workspaceId: string, id: string, gracePeriodSeconds = DEFAULT_GRACE_SECONDS) {
  const current = await loadEndpoint(tx, workspaceId, id);
  const secret = generateSecret();
  const now = new Date();
  const row = await tx.webhookEndpoint.update({
    where: { id },
    data: {
      secret,
      previousSecret: gracePeriodSeconds > 0 ? current.secret : null,
      previousSecretExpiresAt: gracePeriodSeconds > 0 ? new Date(now.getTime() + gracePeriodSeconds * 1000) : null,
      updatedAt: now,
    },
  });
  return { ...toEndpointView(row, now), secret };
}
