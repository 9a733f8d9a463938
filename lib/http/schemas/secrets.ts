import { z } from "zod";
import { defineEndpoint, pathId } from "../endpoint.ts";
import { isoDate } from "./common.ts";
import { createSecretSchema } from "../../secrets/rules.ts";

// Workspace secrets: values HTTP columns send as {{secret:NAME}}. No answer carries a value.

const secretView = z
  .strictObject({
    name: z.string().describe("The secret's name."),
    createdAt: isoDate("When its value was set"),
    last4: z
      .string()
      .describe('The value\'s last four characters, to tell values apart; "" for values under 8 characters.'),
  })
  .describe("A secret, without its value.");

export const listSecrets = defineEndpoint({
  method: "GET",
  path: "/api/v1/secrets",
  // Names alone say which services the workspace holds keys for, so reading them is managing too.
  scope: "secrets:manage",
  allBases: true,
  summary: "List secrets",
  description: "Names, dates and last four characters, by name; never the values.",
  response: z.strictObject({ secrets: z.array(secretView).describe("The workspace's secrets, by name.") }),
});

export const createSecret = defineEndpoint({
  method: "POST",
  path: "/api/v1/secrets",
  scope: "secrets:manage",
  allBases: true,
  audit: { action: "secret.create", target: "secret", fields: ["name"] },
  summary: "Create a secret",
  description:
    "Stores the value encrypted (AES-256-GCM). A name in use answers 409 duplicate_secret, unless replace is true: then the value is replaced (a rotation). The answer never carries the value.",
  body: createSecretSchema.describe("The secret."),
  status: 201,
  response: secretView,
});

export const deleteSecret = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/secrets/{name}",
  scope: "secrets:manage",
  allBases: true,
  audit: { action: "secret.delete", target: "secret", fields: ["name"] },
  summary: "Delete a secret",
  params: z.object({ name: pathId("The secret's name.", "secret_not_found") }),
  response: z.strictObject({
    name: z.string().describe("The secret's name."),
    deleted: z.literal(true).describe("Always true."),
  }),
});
