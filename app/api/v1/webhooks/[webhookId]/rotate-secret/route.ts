import { route } from "@/lib/http/respond";
import { rotateSecret } from "@/lib/webhooks/endpoints";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/webhooks";

// The body is optional: without one, the old secret keeps signing for the default 24 hours.
export const POST = route(api.rotateWebhookSecret, async ({ params, body, rt, auth }) =>
  rotateSecret(rt.db.prisma, auth.workspaceId, params.webhookId, body.gracePeriodSeconds),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
