import { z } from "zod";
import type { Config } from "../config.ts";
import type { Prisma, Tx } from "../db/database.ts";
import type { WebhookEndpoint } from "../db/generated/client.ts";
import { appError, isAppError } from "../errors.ts";
import { newId } from "../ids.ts";
import { assertPublicUrl, type GuardOptions, type HostLookup } from "../net/index.ts";
import { loadBase } from "../domain/base-context.ts";
import { generateSecret } from "./signing.ts";
import { assertBelow, QUOTAS } from "../domain/limits.ts";

// Webhook endpoints of a workspace: registration, management and secret rotation.

export const WEBHOOK_EVENTS = [
  "row.sheet.processed",
  "run.completed",
  "find.completed",
  "cell.changed",
  "schedule.completed",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const DEFAULT_GRACE_SECONDS = 24 * 60 * 60;

const eventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS, { error: `Unknown event; known events: ${WEBHOOK_EVENTS.join(", ")}.` }))
  .min(1, "Subscribe to at least one event.")
  .max(20)
  .transform((events) => [...new Set(events)])
  .describe(`The events to receive, at least one: ${WEBHOOK_EVENTS.join(", ")}.`);
const urlSchema = z
  .string()
  .trim()
  .min(1)
  .max(2_048)
  .describe("The receiver's http(s) URL; it must resolve to public addresses.");
const baseIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .nullable()
  .describe("Only events of this base; null for every base of the workspace.");
const descriptionSchema = z.string().trim().max(500).nullable().describe("A note for people, at most 500 characters.");
const expandSchema = z.boolean().describe("true to include cell metadata (sources, confidence, details) in payloads.");
const enabledSchema = z.boolean().describe("false pauses deliveries; true again forgets why it was disabled.");

export const createEndpointSchema = z
  .object({
    url: urlSchema,
    events: eventsSchema,
    baseId: baseIdSchema.optional(),
    expand: expandSchema.default(false),
    description: descriptionSchema.optional(),
    enabled: enabledSchema.default(true),
  })
  .strict();

export const updateEndpointSchema = z
  .object({
    url: urlSchema,
    events: eventsSchema,
    baseId: baseIdSchema,
    expand: expandSchema,
    description: descriptionSchema,
    enabled: enabledSchema,
  })
  .partial()
  .strict();

export const rotateSecretSchema = z
  .object({
    gracePeriodSeconds: z
      .number()
      .int()
      .min(0)
      .max(7 * DEFAULT_GRACE_SECONDS)
      .default(DEFAULT_GRACE_SECONDS)
      .describe("How long the old secret keeps signing too, in seconds (0 to 7 days; default 24 hours)."),
  })
  .strict();

export type CreateEndpointInput = z.infer<typeof createEndpointSchema>;
export type UpdateEndpointInput = z.infer<typeof updateEndpointSchema>;

export interface EndpointDeps {
  db: { prisma: Prisma };
  config: Config;
}

/** Tests only: resolve hostnames with a fake DNS. */
export interface EndpointOptions {
  lookup?: HostLookup;
}

export function webhookGuard(config: Config, lookup?: HostLookup): GuardOptions {
  return { allowedPrivateHosts: config.fetch.allowedPrivateHosts, ...(lookup ? { lookup } : {}) };
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
export async function createEndpoint(
  rt: EndpointDeps,
  workspaceId: string,
  input: CreateEndpointInput,
  opts: EndpointOptions = {},
) {
  const prisma = rt.db.prisma;
  const url = await vetEndpointUrl(input.url, webhookGuard(rt.config, opts.lookup));
  if (input.baseId) await loadBase(prisma, workspaceId, input.baseId);
  const count = await prisma.webhookEndpoint.count({ where: { workspaceId } });
  assertBelow(
    count,
    QUOTAS.webhooksPerWorkspace,
    `A workspace has at most ${QUOTAS.webhooksPerWorkspace} webhook endpoints`,
  );
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
  const rows = await tx.webhookEndpoint.findMany({
    where: { workspaceId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((r) => toEndpointView(r));
}

export async function getEndpoint(tx: Tx, workspaceId: string, id: string): Promise<EndpointView> {
  return toEndpointView(await loadEndpoint(tx, workspaceId, id));
}

export async function updateEndpoint(
  rt: EndpointDeps,
  workspaceId: string,
  id: string,
  input: UpdateEndpointInput,
  opts: EndpointOptions = {},
) {
  await loadEndpoint(rt.db.prisma, workspaceId, id);
  // The URL is vetted (a DNS lookup) before the transaction, so no lock is held across the network.
  const url =
    input.url === undefined ? undefined : await vetEndpointUrl(input.url, webhookGuard(rt.config, opts.lookup));
  return rt.db.prisma.$transaction(async (tx) => {
    if (input.baseId) await loadBase(tx, workspaceId, input.baseId);
    // Scoped to the workspace in the write itself: an endpoint deleted meanwhile is not found.
    const { count } = await tx.webhookEndpoint.updateMany({
      where: { id, workspaceId },
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
    if (count === 0) throw appError("webhook_not_found", `No webhook endpoint "${id}" in this workspace.`);
    return toEndpointView(await loadEndpoint(tx, workspaceId, id));
  });
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
export async function rotateSecret(
  prisma: Prisma,
  workspaceId: string,
  id: string,
  gracePeriodSeconds = DEFAULT_GRACE_SECONDS,
) {
  return prisma.$transaction(async (tx) => {
    // Locked while read: a concurrent rotation waits, so the secret it replaces is this one's.
    const [current] = await tx.$queryRawUnsafe<{ secret: string }[]>(
      `SELECT secret FROM webhook_endpoints WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
      id,
      workspaceId,
    );
    if (!current) throw appError("webhook_not_found", `No webhook endpoint "${id}" in this workspace.`);
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
  });
}
