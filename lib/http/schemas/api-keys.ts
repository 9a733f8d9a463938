import { z } from "zod";
import { defineEndpoint, pathId, secretField } from "../endpoint.ts";
import { isoDate, nullableIsoDate } from "./common.ts";
import { KEY_SCOPES } from "../../auth/permissions.ts";

const keyScopeSchema = z
  .enum(KEY_SCOPES)
  .describe(
    "A scope: rows:read, rows:write, schema:write, runs:write, webhooks:manage, keys:manage, secrets:manage or audit:read.",
  );

const apiKeyViewShape = {
  id: z.string().describe("The key's id (key_…)."),
  name: z.string().describe("The key's name."),
  prefix: z.string().describe("The first characters of the key, to recognise it."),
  createdAt: isoDate("When it was created"),
  lastUsedAt: nullableIsoDate("When it was last used"),
  revokedAt: nullableIsoDate("When it was revoked"),
  scopes: z.array(z.string()).describe("What the key may do, sorted; never more than its creator's role allows."),
  baseIds: z.array(z.string()).nullable().describe("The bases the key may reach; null: every base of the workspace."),
  expiresAt: nullableIsoDate("When the key stops working (401 api_key_expired)"),
  dailyCreditCap: z
    .number()
    .int()
    .nullable()
    .describe("Credits the key may spend per UTC day (402 key_spend_cap_reached past it); null: no cap."),
  spentToday: z.number().int().describe("Credits charged to the key since midnight UTC."),
  createdBy: z
    .strictObject({
      type: z
        .enum(["user", "key", "workspace"])
        .describe("user: a person in the web app; key: another key; workspace: a workspace key (first key, API_KEY)."),
      id: z.string().nullable().describe("The user's or key's id; null for workspace keys."),
      name: z.string().describe("The user's email, the key's name, or \"workspace\"."),
    })
    .describe("Who made the key."),
};
const apiKeyViewSchema = z.strictObject(apiKeyViewShape).describe("An API key, without its secret.");
const keyIdParams = z.object({ keyId: pathId("The key's id (key_…).", "api_key_not_found") });
const keyName = z.string().trim().min(1).max(100);

export const listApiKeys = defineEndpoint({
  method: "GET",
  path: "/api/v1/api-keys",
  scope: "keys:own",
  summary: "List API keys",
  description:
    "With keys:manage, every key of the workspace; otherwise the caller's own: the keys the signed-in user made, or the calling key made.",
  response: z.strictObject({
    apiKeys: z.array(apiKeyViewSchema).describe("The keys, oldest first; never the secrets."),
  }),
});

export const createApiKey = defineEndpoint({
  method: "POST",
  path: "/api/v1/api-keys",
  scope: "keys:own",
  audit: { action: "key.create", target: "key", fields: ["name", "scopes", "baseIds", "expiresAt", "dailyCreditCap"] },
  summary: "Create an API key",
  description:
    "A key is never more than its creator: its scopes, bases, expiry and daily credit cap lie within the caller's (403 cannot_grant names what does not), and what is not asked for is inherited. The key itself is in this answer only; it is stored as a hash. A replay of this request (same Idempotency-Key) returns the same key without it: `key` is null and `Idempotency-Withheld: key` says so.",
  body: z
    .object({
      name: keyName.default("API key").describe('A name, 1 to 100 characters; default "API key".'),
      scopes: z
        .array(keyScopeSchema)
        .min(1)
        .max(KEY_SCOPES.length)
        .optional()
        .describe("What the key may do, at least one scope; default every scope the caller holds."),
      baseIds: z
        .array(z.string().min(1).max(100).describe("A base's id."))
        .max(100)
        .optional()
        .describe("At most 100 bases the key is limited to; default every base the caller may reach."),
      expiresAt: z.iso
        .datetime({ offset: true })
        .optional()
        .describe("When the key stops working (ISO 8601, future); default never, or the calling key's expiry."),
      dailyCreditCap: z
        .number()
        .int()
        .min(0)
        .max(1_000_000_000)
        .optional()
        .describe("Credits the key may spend per UTC day, 0 to 1,000,000,000; default none, or the calling key's cap."),
    })
    .strict(),
  bodyType: "optional-json",
  status: 201,
  response: z.strictObject({
    ...apiKeyViewShape,
    key: secretField("The key: cw_ followed by 40 characters. Shown once: null in a replay of this request."),
  }),
});

export const updateApiKey = defineEndpoint({
  method: "PATCH",
  path: "/api/v1/api-keys/{keyId}",
  scope: "keys:own",
  audit: { action: "key.update", target: "key", fields: ["name", "dailyCreditCap"] },
  summary: "Rename an API key or change its daily credit cap",
  description:
    "The caller's own keys, or any with keys:manage (404 api_key_not_found otherwise). A caller with a cap of its own cannot lift a cap or raise it past its own (403 cannot_grant).",
  params: keyIdParams,
  body: z
    .object({
      name: keyName.optional().describe("A new name, 1 to 100 characters."),
      dailyCreditCap: z
        .number()
        .int()
        .min(0)
        .max(1_000_000_000)
        .nullable()
        .optional()
        .describe("Credits per UTC day, 0 to 1,000,000,000; null lifts the cap."),
    })
    .strict(),
  response: apiKeyViewSchema,
});

export const revokeApiKey = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/api-keys/{keyId}",
  scope: "keys:own",
  audit: { action: "key.revoke", target: "key", fields: ["name"] },
  summary: "Revoke an API key",
  description: "The caller's own keys, or any with keys:manage (404 api_key_not_found otherwise).",
  params: keyIdParams,
  response: apiKeyViewSchema,
});
