import { param, route } from "@/lib/http/respond";
import { readBody } from "@/lib/http/body";
import { rotateSecret, rotateSecretSchema } from "@/lib/webhooks/endpoints";
import { otherMethods } from "@/lib/http/methods";

export const POST = route(async ({ req, params, rt, auth }) => {
  // The body is optional: without one, the old secret keeps signing for the default 24 hours.
  const { gracePeriodSeconds } = req.headers.get("content-type") ? await readBody(req, rotateSecretSchema) : rotateSecretSchema.parse({});
  return rotateSecret(rt.db.prisma, auth.workspaceId, param(params, "webhookId"), gracePeriodSeconds);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
