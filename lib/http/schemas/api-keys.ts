import { z } from "zod";
import { defineEndpoint, pathId, secretField } from "../endpoint.ts";
import { isoDate, nullableIsoDate } from "./common.ts";

const apiKeyViewShape = {
  id: z.string().describe("The key's id (key_…)."),
  name: z.string().describe("The key's name."),
  prefix: z.string().describe("The first characters of the key, to recognise it."),
  createdAt: isoDate("When it was created"),
  lastUsedAt: nullableIsoDate("When it was last used"),
  revokedAt: nullableIsoDate("When it was revoked"),
};
const apiKeyViewSchema = z.strictObject(apiKeyViewShape).describe("An API key, without its secret.");

export const listApiKeys = defineEndpoint({
  method: "GET",
  path: "/api/v1/api-keys",
  scope: "keys:own",
  summary: "List API keys",
  response: z.strictObject({
    apiKeys: z.array(apiKeyViewSchema).describe("The workspace's keys, oldest first; never the secrets."),
  }),
});

export const createApiKey = defineEndpoint({
  method: "POST",
  path: "/api/v1/api-keys",
  scope: "keys:own",
  audit: { action: "key.create", target: "key", fields: ["name"] },
  summary: "Create an API key",
  description:
    "The key itself is in this answer only; it is stored as a hash. A replay of this request (same Idempotency-Key) returns the same key without it: `key` is null and `Idempotency-Withheld: key` says so.",
  body: z
    .object({
      name: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .default("API key")
        .describe('A name, 1 to 100 characters; default "API key".'),
    })
    .strict(),
  bodyType: "optional-json",
  status: 201,
  response: z.strictObject({
    ...apiKeyViewShape,
    key: secretField("The key: cw_ followed by 40 characters. Shown once: null in a replay of this request."),
  }),
});

export const revokeApiKey = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/api-keys/{keyId}",
  scope: "keys:own",
  audit: { action: "key.revoke", target: "key", fields: ["name"] },
  summary: "Revoke an API key",
  params: z.object({ keyId: pathId("The key's id (key_…).", "api_key_not_found") }),
  response: apiKeyViewSchema,
});
